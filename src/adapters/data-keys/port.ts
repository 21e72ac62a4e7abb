/**
 * Per-bot data keys, kept outside the append-only event log: the personal fields of a bot's events are
 * sealed with its key (src/adapters/personal-data), and deleting the bot's data destroys the key, which
 * makes those fields unreadable in the log and in every copy of it. A destroyed key leaves a tombstone
 * with its time, so that a bot whose events were written before keys existed is known as deleted too.
 *
 * Small on purpose (four calls): the embedded default is a SQLite file beside the event log; with a shared
 * event store (PostgreSQL) the keys go into the same database, under the same contract suite
 * (test/adapters/data-key-store.contract.ts).
 */
export type DataKeyLookup =
  | { readonly state: 'live'; readonly key: Buffer }
  | { readonly state: 'destroyed'; readonly destroyedAt: string }
  /** never made: the owner's events were all written before keys, or hold nothing personal */
  | { readonly state: 'none' };

export interface DataKeyStore {
  /** The owner's 32-byte key, made at the first call (one key however many ask at once); null once destroyed. */
  keyToSeal(owner: string): Promise<Buffer | null>;
  /** What there is for the owner, making nothing. */
  lookup(owner: string): Promise<DataKeyLookup>;
  /** Destroys the owner's key for good, keeping the tombstone of the first destruction; an owner without a key gets the tombstone alone. */
  destroy(owner: string, at: string): Promise<void>;
  close(): Promise<void>;
}
