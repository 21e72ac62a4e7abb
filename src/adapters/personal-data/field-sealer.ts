import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A personal field as the log keeps it: its JSON sealed with its owner's data key. */
export interface SealedPersonalValue {
  readonly $personal: string;
}

const VERSION = 'pd1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const isSealedPersonalValue = (value: unknown): value is SealedPersonalValue =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { $personal?: unknown }).$personal === 'string';

/**
 * AES-256-GCM over the value's JSON, a fresh IV each time, and the place it was sealed for (owner, event
 * type, field) as associated data: a sealed value moved to another field, event or bot does not open.
 */
export const sealPersonalValue = (key: Buffer, place: string, value: unknown): SealedPersonalValue => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(place, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { $personal: [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.') };
};

/** The value sealed for `place`; throws when the key or the place is not the one it was sealed with. */
export const openPersonalValue = (key: Buffer, place: string, sealed: SealedPersonalValue): unknown => {
  const [version, iv, tag, body] = sealed.$personal.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed personal value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(place, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')) as unknown;
};
