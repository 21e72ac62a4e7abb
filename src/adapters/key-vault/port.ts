import type { Sealed } from '../../domain/codec-helpers';

/**
 * Keys of stored credentials, kept outside the event log (DESIGN.md "vc credentials"): each credential's
 * secrets are sealed in its events with its own key, and deleting the credential destroys the key, which
 * makes every sealed value of its history unreadable, in the log and in every copy of it. The keys
 * themselves are stored sealed with the service secret, so a copy of the vault alone reveals nothing.
 *
 * The embedded default is a SQLite file beside the data; with MONGO_URL a collection of its own database
 * (never the read models' database, which a rebuild drops). One contract suite runs against both.
 */
export interface KeyVault {
  /** The key, made (32 random bytes) the first time it is asked for; null once it has been destroyed. */
  keyFor(keyId: string): Promise<Buffer | null>;
  /** Destroys the key for good: asked for again, it is null. Destroying an unknown or destroyed key is nothing. */
  destroy(keyId: string): Promise<void>;
  close(): Promise<void>;
}

/** The credential's key was destroyed (the credential was deleted): what it sealed cannot be read any more. */
export class KeyDestroyedError extends Error {
  constructor(keyId: string) {
    super(`the key ${keyId} was destroyed with its credential`);
    this.name = 'KeyDestroyedError';
  }
}

/** A credential's secrets sealed and opened with its own key (credential-sealer.ts); both throw KeyDestroyedError once it is destroyed. */
export interface CredentialSeals {
  seal(keyId: string, plain: string): Promise<Sealed>;
  open(keyId: string, secret: Sealed): Promise<string>;
  /** crypto-shredding: nothing the key sealed can be opened again */
  destroy(keyId: string): Promise<void>;
}
