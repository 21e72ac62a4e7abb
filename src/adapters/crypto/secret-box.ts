import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { ServiceKeys } from '../signing/service-keys';

/** A secret as it is stored: AES-256-GCM ciphertext, never the plain value. */
export interface SealedSecret {
  readonly sealed: string;
}

export const isSealedSecret = (value: unknown): value is SealedSecret =>
  typeof value === 'object' && value !== null && typeof (value as { sealed?: unknown }).sealed === 'string' && Object.keys(value).length === 1;

const VERSION = 'v2';
/** Before key ids: `v1.<iv>.<tag>.<body>` under a key derived from the one service secret. */
const LEGACY_VERSION = 'v1';
const IV_BYTES = 12;
/** GCM's full tag: a shorter one would make forgeries far cheaper, so nothing else is accepted. */
const TAG_BYTES = 16;

const notOurs = () => new Error('not a sealed secret of this service');

const openWith = (key: Buffer, iv: Buffer, tag: Buffer, body: Buffer): string => {
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw notOurs();
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
};

const legacyKeyOf = (master: Buffer): Buffer => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'secret-box', 32));

/**
 * Encrypts write-only secrets (provider keys, tokens, passwords) before they reach any store: AES-256-GCM
 * under the current sealing key, naming it (`v2.<key id>.<iv>.<tag>.<body>`), so that values sealed under
 * a previous key still open while that key is kept. Values sealed before key ids (`v1`) open under any key
 * of the ring.
 */
export class SecretBox {
  constructor(private readonly keys: ServiceKeys) {}

  /** The id of the key that seals now: a value sealed under another one is due to be sealed again. */
  get currentKeyId(): string {
    return this.keys.current.id;
  }

  seal(plain: string): SealedSecret {
    const key = this.keys.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.keyFor('seal'), iv, { authTagLength: TAG_BYTES });
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { sealed: [VERSION, key.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.') };
  }

  open(secret: SealedSecret): string {
    const parts = secret.sealed.split('.');
    const bytes = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');
    if (parts[0] === VERSION && parts.length === 5) {
      const key = this.keys.withId(parts[1]!);
      if (!key) throw new Error(`sealed under key ${parts[1]}, which this service does not have (retired, or another service's)`);
      return openWith(key.keyFor('seal'), bytes(parts[2]), bytes(parts[3]), bytes(parts[4]));
    }
    if (parts[0] === LEGACY_VERSION && parts.length === 4) {
      for (const key of this.keys.all) {
        try {
          return openWith(legacyKeyOf(key.legacyMaster), bytes(parts[1]), bytes(parts[2]), bytes(parts[3]));
        } catch {
          // another key of the ring may have sealed it
        }
      }
    }
    throw notOurs();
  }
}

/** The key a sealed value names (`legacy` before key ids); null for anything that is not a sealed value. */
export const sealingKeyIdOf = (secret: SealedSecret): string | null => {
  const parts = secret.sealed.split('.');
  if (parts[0] === VERSION && parts.length === 5) return parts[1]!;
  return parts[0] === LEGACY_VERSION && parts.length === 4 ? 'legacy' : null;
};

/** For showing stored data to a caller: sealed values become a marker, anywhere in the tree. */
export const redactSealed = (value: unknown): unknown => {
  if (isSealedSecret(value)) return '[encrypted]';
  if (Array.isArray(value)) return value.map(redactSealed);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactSealed(v)]));
  return value;
};
