import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A secret as it is stored: AES-256-GCM ciphertext, never the plain value. */
export interface SealedSecret {
  readonly sealed: string;
}

export const isSealedSecret = (value: unknown): value is SealedSecret =>
  typeof value === 'object' && value !== null && typeof (value as { sealed?: unknown }).sealed === 'string' && Object.keys(value).length === 1;

const VERSION = 'v1';

/** Encrypts write-only secrets (provider keys, tokens, passwords) before they reach any store. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serviceSecret: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', serviceSecret, Buffer.alloc(0), 'secret-box', 32));
  }

  seal(plain: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { sealed: [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.') };
  }

  open(secret: SealedSecret): string {
    const [version, iv, tag, body] = secret.sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret of this service');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** For showing stored data to a caller: sealed values become a marker, anywhere in the tree. */
export const redactSealed = (value: unknown): unknown => {
  if (isSealedSecret(value)) return '[encrypted]';
  if (Array.isArray(value)) return value.map(redactSealed);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactSealed(v)]));
  return value;
};
