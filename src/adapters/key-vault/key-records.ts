/**
 * What one store keeps of an owner's key, as the vault (sealed-key-vault.ts) reads and writes it: the key
 * sealed with the service's secret box, or, once destroyed, no key and the time of its first destruction.
 */
export type KeyRecord =
  | { readonly sealed: string; readonly destroyedAt: null }
  /** `destroyedAt` null: destroyed before the vault kept times (issue 21's vault) */
  | { readonly sealed: null; readonly destroyedAt: string | null };

/**
 * The storage under the key vault, one per engine (SQLite, PostgreSQL, MongoDB). Every write is safe with
 * other instances writing at once: of two first keys for an owner one is kept, a destruction is never
 * undone, and a key sealed again replaces only the value it was made from.
 */
export interface KeyRecords {
  /** what is kept for the owner; undefined when nothing is */
  read(owner: string): Promise<KeyRecord | undefined>;
  /** keeps a new sealed key unless the owner has a record already (a key, or a tombstone) */
  insert(owner: string, sealed: string): Promise<void>;
  /** replaces the sealed key `was` by `now` (the same key sealed under the current service key), if `was` is still kept */
  reseal(owner: string, was: string, now: string): Promise<void>;
  /** removes the owner's sealed key and keeps its tombstone; the time of an earlier destruction stays */
  destroy(owner: string, at: string | null): Promise<void>;
  /** the live keys sealed under another service key than `keyId` (a rotation), to be sealed again */
  sealedUnderOtherKeys(keyId: string): Promise<readonly { readonly owner: string; readonly sealed: string }[]>;
  close(): Promise<void>;
}

/**
 * A LIKE pattern (backslash escapes) of the values the secret box seals under `keyId`
 * (`v2.<key id>.<iv>.<tag>.<body>`), for the SQL engines: a key id is base64url, whose `_` is a wildcard.
 */
export const sealedUnderPattern = (keyId: string): string => `v2.${keyId.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
