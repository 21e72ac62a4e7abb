/** The few pages our identity provider shows a browser: the bot's sign-in form, the auto-post to Google, refusals. */

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
  `<meta name="robots" content="noindex"></head><body>${body}</body></html>`;

const hidden = (name: string, value: string | null): string => (value === null ? '' : `<input type="hidden" name="${name}" value="${escape(value)}">`);

/**
 * Where Google sends the browser: a form asking for the one-time credential the service handed the bot
 * for this sign-in. People have nothing to enter here; the bot's driver fills `bot_credential`.
 */
export const botSignInPage = (fields: { samlRequest: string; relayState: string | null; binding: 'redirect' | 'post' }): string =>
  page(
    'Meeting bot sign-in',
    `<main data-sso="bot-sign-in"><h1>Meeting bot sign-in</h1>` +
      `<p>This sign-in page is for the meeting bots of this service: only a bot, during its own run, can sign in here.</p>` +
      `<form method="post">${hidden('SAMLRequest', fields.samlRequest)}${hidden('RelayState', fields.relayState)}${hidden('binding', fields.binding)}` +
      `<label>One-time bot credential <input type="password" name="bot_credential" autocomplete="off" required></label> ` +
      `<button type="submit">Sign in</button></form></main>`,
  );

/** The HTTP-POST binding: the browser posts the signed Response to Google's assertion consumer service. */
export const autoPostPage = (fields: { acsUrl: string; samlResponse: string; relayState: string | null }): string =>
  page(
    'Signing in…',
    `<form method="post" action="${escape(fields.acsUrl)}" data-sso="assertion">${hidden('SAMLResponse', fields.samlResponse)}${hidden('RelayState', fields.relayState)}` +
      `<noscript><button type="submit">Continue</button></noscript></form><script>document.forms[0].submit();</script>`,
  );

export const refusalPage = (title: string, reason: string): string =>
  page(title, `<main data-sso="refused"><h1>${escape(title)}</h1><p>${escape(reason)}</p></main>`);

export const signedOutPage = (): string => page('Signed out', `<main data-sso="signed-out"><h1>Signed out</h1></main>`);
