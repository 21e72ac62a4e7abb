/** HS256 JSON Web Tokens, as the platform uses them for SDK signatures, OBF tokens and ZAKs. */
import { createHmac, timingSafeEqual } from 'node:crypto';

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export const signJwt = (claims: Record<string, unknown>, secret: string | Buffer): string => {
  const head = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
};

/** The claims, unverified (to find whose secret checks it); null when it is not a JWT at all. */
export const peekJwt = (token: string): Record<string, unknown> | null => {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') return null;
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

export const jwtSignedWith = (token: string, secret: string | Buffer): boolean => {
  const [head, body, mac] = token.split('.');
  if (!head || !body || !mac) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url'));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
};
