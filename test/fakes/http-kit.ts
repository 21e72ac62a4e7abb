import type http from 'node:http';

/** The small HTTP plumbing the provider fakes share: reading a body, answering JSON, posting a notice. */
export const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(body === undefined ? '' : JSON.stringify(body));
};

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** What a provider's push reached: the receiver's status, or why nothing came back. */
export interface DeliveredNotice {
  readonly url: string;
  readonly kind: string;
  readonly status: number | null;
  readonly error: string | null;
  readonly body: string;
}

export const postNotice = async (url: string, headers: Record<string, string>, body: string, kind: string, timeoutMs: number): Promise<DeliveredNotice> => {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    return { url, kind, status: response.status, error: null, body: await response.text() };
  } catch (err) {
    return { url, kind, status: null, error: (err as Error).message, body: '' };
  }
};

/**
 * Real providers call https addresses only; these fakes also call plain http on this machine, where the
 * service under test listens (a deliberate difference, the only one in what they accept).
 */
export const acceptableNoticeUrl = (address: string): boolean => {
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]'));
  } catch {
    return false;
  }
};
