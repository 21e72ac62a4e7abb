/**
 * The spec's token URL contract: GET, the raw token as a plain-text body (not JSON). What came back is
 * judged here, and a refusal says what it was without repeating it (a body may hold anything, an HTML
 * error page of an internal proxy included). Pure.
 */
export interface TokenAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

export type TokenJudgement = { readonly ok: true; readonly token: string } | { readonly ok: false; readonly what: string };

/** Longer than any token the platform issues (an OBF token is a JWT of a few hundred characters). */
export const MAX_TOKEN_LENGTH = 8192;

const refuse = (what: string): TokenJudgement => ({ ok: false, what });

export const judgeTokenAnswer = (answer: TokenAnswer): TokenJudgement => {
  if (answer.status < 200 || answer.status > 299) return refuse(`HTTP ${answer.status}`);
  const type = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const body = answer.body.trim();
  if (body === '') return refuse('an empty body');
  if (type === 'text/html' || type === 'application/xhtml+xml' || /^<(!doctype|html|head|body|\?xml)/i.test(body) || body.startsWith('<')) {
    return refuse('an HTML page, not a token');
  }
  if (type.endsWith('json') || body.startsWith('{') || body.startsWith('[') || body.startsWith('"')) {
    return refuse('a JSON body; the token URL must answer the raw token as plain text');
  }
  if (body.length > MAX_TOKEN_LENGTH) return refuse(`a body of ${body.length} characters, longer than a token`);
  if (/\s/.test(body)) return refuse('text with spaces or several lines, not a token');
  if (!/^[\x21-\x7e]+$/.test(body)) return refuse('text with characters a token does not have');
  return { ok: true, token: body };
};
