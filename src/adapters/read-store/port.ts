/**
 * The read store port: documents grouped in collections, each stamped with the global position of the
 * last event applied to it. Every implementation (in-memory by default, MongoDB in production) passes
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

export interface SortKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

export interface FindQuery {
  /** Equality on top-level fields; all must match. */
  readonly where?: Readonly<Record<string, FieldValue>>;
  /** Documents whose top-level `field` is strictly greater than `value`. */
  readonly greaterThan?: { readonly field: string; readonly value: string | number };
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
  /** Checkpoints of subscribers and projections: the last global position they fully processed. */
  loadCheckpoint(name: string): Promise<bigint | null>;
  saveCheckpoint(name: string, position: bigint): Promise<void>;
  /** Drops every collection and every checkpoint (used by rebuild-projections). */
  dropAll(): Promise<void>;
  close(): Promise<void>;
}
