import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (spec 1.0.0, symmetric `v1`): HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`
 * (the exact bytes sent), base64, as `v1,<signature>`; several signatures (a rotation's old and new secret)
 * are separated by spaces. A receiver verifies with the `standardwebhooks` package.
 */

const PREFIX = 'whsec_';

/** An endpoint's secret: 32 random bytes, base64, with the `whsec_` prefix the convention uses. */
export const newEndpointSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** The key bytes of an endpoint secret, as `new Webhook(secret)` of `standardwebhooks` reads it. */
export const endpointSigningKey = (secret: string): Buffer => Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');

/**
 * The key bytes of a callback secret, which the team chose freely: its UTF-8 bytes, as
 * `new Webhook(new TextEncoder().encode(secret), { format: 'raw' })` reads it.
 */
export const callbackSigningKey = (secret: string): Buffer => Buffer.from(secret, 'utf8');

export const signatureHeader = (messageId: string, timestampSeconds: number, body: string, keys: readonly Buffer[]): string =>
  keys.map((key) => `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`).join(' ');
