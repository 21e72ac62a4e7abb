import type { Sealed } from '../../domain/codec-helpers';

/**
 * The service's key vault: a key per owner, kept outside the append-only event log, for crypto-shredding.
 * What an owner's events hold that must be deletable is sealed with the owner's own key; destroying the key
 * makes it unreadable in the log and in every copy of it (backups, exports, replicas), without rewriting
 * anything. Its owners: a bot (its personal fields, src/adapters/personal-data; destroyed when the team
 * deletes the bot's data) and a stored vc credential (its secrets, credential-sealer.ts; destroyed with the
 * credential). Owner ids are the service's own random UUIDs (bot ids, credential key ids), so the two never
 * meet.
 *
 * Keys are stored sealed with the service's secret box, whose secret lives outside the store, so a copy of
 * the store alone opens nothing; they are sealed again under the current service key when the vault opens,
 * so retiring a previous service key loses none. A destroyed key's record keeps a tombstone with the time
 * of the first destruction: an owner whose data was written before it had a key is known as deleted too.
 *
 * It follows the event store, like the checkpoints (index.ts): PostgreSQL (DATABASE_URL), else MongoDB
 * (MONGO_URL), else a SQLite file in DATA_DIR. One contract suite runs against all three
 * (test/adapters/key-vault.contract.ts).
 */
export type KeyLookup =
  | { readonly state: 'live'; readonly key: Buffer }
  /** `destroyedAt`: the first destruction's time; null when it was destroyed before the vault kept times */
  | { readonly state: 'destroyed'; readonly destroyedAt: string | null }
  /** never made (the owner's events were all written before keys, or hold nothing sealed), or sealed under a service key that was retired */
  | { readonly state: 'none' };

export interface KeyVault {
  /** The owner's 32-byte key, made at the first call (one key however many ask at once, in any instance); null once destroyed. */
  keyToSeal(owner: string): Promise<Buffer | null>;
  /** What there is for the owner, making nothing. */
  lookup(owner: string): Promise<KeyLookup>;
  /**
   * Destroys the owner's key for good (its sealed bytes removed from the store at once), keeping the time of
   * the first destruction; an owner without a key gets the tombstone alone. Never made again afterwards.
   */
  destroy(owner: string, at: string): Promise<void>;
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
