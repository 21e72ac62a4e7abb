/**
 * The event store port. Every implementation (SQLite by default, EventStoreDB in production) passes the
 * same contract suite in test/adapters/event-store.contract.ts.
 *
 * Conventions (shared by every implementation, converted inside the adapter):
 * - stream revisions start at 0, like EventStoreDB; a stream's revision is the revision of its last event;
 * - global positions are bigints, strictly increasing in append order across all streams, and opaque
 *   otherwise (never assume they are dense or start at a given number);
 * - `recordedAt` is the store's own clock and is metadata only: domain time travels inside `data`.
 */

export type StreamName = string;

/** `no_stream`: the stream must not exist; `any`: no check; a bigint: the stream's current revision. */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface NewEvent {
  /** A UUID. Deterministic where a retry could append the same fact twice. */
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export interface RecordedEvent {
  readonly id: string;
  readonly streamName: StreamName;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly revision: bigint;
  readonly position: bigint;
  readonly recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event appended: pass it as the expected revision of the next append. */
  readonly nextExpectedRevision: bigint;
  /** Global position of the last event appended: wait for read models to reach it. */
  readonly position: bigint;
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamName: StreamName,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

export interface Subscription {
  /** Resolves once no handler call is running and none will start. */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Exclusive: the subscription delivers events with a position strictly greater. Omitted: from the start. */
  readonly fromPosition?: bigint;
  /** Called when the subscription dies for a reason other than stop(). */
  readonly onError?: (error: Error) => void;
}

export interface EventStore {
  /**
   * Appends atomically: all events or none. Throws WrongExpectedRevision on conflict. Re-sending an append
   * that already succeeded (same event ids at the same place) returns the first result and writes nothing.
   */
  appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Events of the stream in revision order, from `fromRevision` (inclusive; default 0); [] when the stream
   * does not exist or has nothing from there.
   */
  readStream(stream: StreamName, options?: { readonly fromRevision?: bigint }): Promise<readonly RecordedEvent[]>;
  /** Events of every stream in position order, after `fromPosition` (exclusive), at most `maxCount`. */
  readAll(options?: { readonly fromPosition?: bigint; readonly maxCount?: number }): Promise<readonly RecordedEvent[]>;
  /**
   * Catch-up subscription to every stream: past events first, then live ones, in position order, one
   * handler call at a time (the next event is delivered only after the previous handler resolved).
   * Never await `stop()` from inside the same subscription's handler: it waits for that handler.
   */
  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription;
  close(): Promise<void>;
}
