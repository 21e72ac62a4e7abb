/** The spec: a Sending Access key may only POST to these five endpoints. */
const sendingAccessPaths: readonly RegExp[] = [
  /^\/v2\/bots\/?$/,
  /^\/v2\/bots\/batch\/?$/,
  /^\/v2\/bots\/scheduled\/?$/,
  /^\/v2\/bots\/scheduled\/batch\/?$/,
  /^\/v2\/calendars\/[^/]+\/bots\/?$/,
];

export const sendingAccessAllows = (method: string, path: string): boolean =>
  method === 'POST' && sendingAccessPaths.some((pattern) => pattern.test(path));
