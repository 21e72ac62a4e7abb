/**
 * The read store port: documents grouped in collections, each stamped with the global position of the
 * last event applied to it. Every implementation (SQLite by default, in memory, MongoDB in production) passes
 * the same contract suite in test/adapters/read-store.contract.ts.
 *
 * Positions are bigints here; implementations must never store them as JavaScript numbers (MongoDB:
 * zero-padded decimal strings, so that string order is numeric order).
 */

export type FieldValue = string | number | boolean | null;

export interface ReadDocument {
  readonly id: string;
  readonly [field: string]: unknown;
}

export interface StoredDocument<D extends ReadDocument = ReadDocument> {
  readonly doc: D;
  readonly position: bigint;
}

/**
 * Fields are named by path: `status`, or `extra_text.k_deal` for a field of an embedded object (never
 * through an array). A path's segments must not be empty nor start with `$`; names that come from users
 * are encoded by the caller before they become a segment.
 */
export interface SortKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
  /**
   * `last`: documents where the field is missing or null come after every other, in both directions
   * (otherwise they sort first ascending and last descending, as MongoDB sorts them).
   */
  readonly missing?: 'last';
}

/** Inclusive bounds on one field, compared like MongoDB's $gte/$lte: only values of the bound's type match. */
export interface Between {
  readonly field: string;
  readonly gte?: string | number;
  readonly lte?: string | number;
}

/**
 * `text` is a substring (exact, case-sensitive) of the field's string value or of any string of the field's
 * array. A case-insensitive search stores a folded copy of the text and searches it with a folded needle:
 * the store itself never folds case, so that every implementation agrees on every script.
 */
export interface Contains {
  readonly field: string;
  readonly text: string;
}

export interface FindQuery {
  /** Equality; all must match. */
  readonly where?: Readonly<Record<string, FieldValue>>;
  /** Documents whose `field` is strictly greater than `value`. */
  readonly greaterThan?: { readonly field: string; readonly value: string | number };
  /** All must hold. */
  readonly between?: readonly Between[];
  /** All must hold. */
  readonly contains?: readonly Contains[];
  readonly orderBy?: readonly SortKey[];
  /**
   * Keyset pagination: the values of the `orderBy` fields of the last document of the previous page;
   * only documents strictly after it in that order are returned.
   */
  readonly startAfter?: readonly FieldValue[];
  readonly limit?: number;
}

export interface ReadStore {
  /**
   * Writes the document only if the stored one (if any) has an older position. Returns whether it wrote.
   * This is what makes applying the same event twice change nothing.
   */
  upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean>;
  get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null>;
  find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]>;
  count(collection: string, where?: Readonly<Record<string, FieldValue>>): Promise<number>;
  /**
   * Makes sure the queries of a read model have an index for each of these orders (the fields a query
   * filters on by equality first). Idempotent; the memory store needs none.
   */
  ensureIndexes(collection: string, indexes: readonly (readonly SortKey[])[]): Promise<void>;
  /** Checkpoints of projections: the last global position they fully processed. */
  loadCheckpoint(name: string): Promise<bigint | null>;
  /** Only forward: a position at or before the saved one changes nothing, even when two saves race. */
  saveCheckpoint(name: string, position: bigint): Promise<void>;
  /**
   * Runs `work` so that what it writes is stored all at once or not at all (SQLite: one transaction), or
   * as it goes where the store has no such thing (memory, MongoDB: each write is guarded by position, so a
   * projection's checkpoint saved last is never ahead of its documents). One at a time.
   */
  atomically<T>(work: () => Promise<T>): Promise<T>;
  /** Drops every collection and every checkpoint (used by rebuild-projections). */
  dropAll(): Promise<void>;
  close(): Promise<void>;
}
