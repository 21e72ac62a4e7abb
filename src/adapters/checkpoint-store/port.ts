/**
 * Where subscribers (side effects: settlement, webhooks, the orphan reconciler) keep the last global
 * position they fully handled, and the named leases that let exactly one process run each of them when
 * several share the stores. Unlike the read models, this must survive a restart: a webhook sender that
 * forgot its place would go through the whole history again at every start.
 *
 * Every implementation (SQLite for processes on one host, PostgreSQL, MongoDB) passes the contract suite
 * in test/adapters/checkpoint-store.contract.ts.
 */

/** A lease held: what acquire and renew return, and what a fenced checkpoint save carries. */
export interface Lease {
  readonly name: string;
  /** Who holds it: unique per process (two processes with one owner name would both hold it). */
  readonly owner: string;
  /**
   * The fencing token: greater for every new holding of this name (a change of owner, or the same owner
   * taking it again after it expired or was released), the same while it is renewed.
   */
  readonly epoch: number;
  /** When it lapses unless renewed, on the store's clock (never the caller's). */
  readonly expiresAt: Date;
}

/** A fenced checkpoint save whose lease is no longer held by that owner at that epoch. */
export class LeaseLost extends Error {
  constructor(readonly lease: Lease) {
    super(`lease ${lease.name} (epoch ${lease.epoch}) is no longer held by ${lease.owner}`);
    this.name = 'LeaseLost';
  }
}

/**
 * Timings for callers that keep a lease (the store only computes expiries). A holder renews every
 * `renewEveryMs`; a standby tries to acquire every `retryEveryMs`: a dead holder's lease lapses at most
 * `ttlMs` after its last renewal and is taken within `retryEveryMs` after that, well within two lease
 * periods. A holder whose renewal fails (or comes back null) must stop its work at once: by the time it
 * learns, a standby may be taking over.
 */
export const DEFAULT_LEASE_TIMING = { ttlMs: 15_000, renewEveryMs: 5_000, retryEveryMs: 5_000 } as const;

export interface CheckpointStore {
  loadCheckpoint(name: string): Promise<bigint | null>;
  /**
   * Moves the checkpoint forward: a position at or before the saved one changes nothing, even when saves
   * race. With `holder`, the save is made only while that lease is held by that owner at that epoch and
   * has not expired; otherwise it throws LeaseLost. (On MongoDB, which has no transactions here, a save
   * racing a takeover within a few milliseconds may still land before it throws; the position it writes
   * is one its writer fully handled, so the new holder never misses an event.)
   */
  saveCheckpoint(name: string, position: bigint, holder?: Lease): Promise<void>;
  /**
   * Takes the lease when no one holds it, it expired, it was released, or `owner` holds it already (then
   * it is renewed at the same epoch); null while another owner holds it. Expiry is now + `ttlMs` on the
   * store's clock. Two contenders never both get it.
   */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | null>;
  /** Extends a lease still held (same owner and epoch, not expired) to now + `ttlMs`; null when it was lost. */
  renewLease(lease: Lease, ttlMs: number): Promise<Lease | null>;
  /** Gives the lease up at once (a standby may take it on its next try); does nothing if it was lost already. */
  releaseLease(lease: Lease): Promise<void>;
  /** Who holds the lease now (unexpired), or null. */
  readLease(name: string): Promise<Lease | null>;
  close(): Promise<void>;
}
