import type { StreamName } from '../event-store/port';

/**
 * A stream's state folded up to a revision, kept so that the first command on a long stream after a
 * start (a team's ledger grows by two events per bot, forever) folds only what came after it. A cache of
 * the log, never a source of truth: a snapshot whose event is not where it says in the log, or written by
 * another version of the state, is passed over.
 */
export interface Snapshot {
  /** the revision of the last event folded in */
  readonly revision: bigint;
  /** that event's id: the log still holds it there, or the snapshot is of another history */
  readonly eventId: string;
  /** the version of the state's encoding (the decider's) */
  readonly version: number;
  readonly state: unknown;
}

export interface SnapshotStore {
  load(stream: StreamName): Promise<Snapshot | null>;
  /** Replaces the stream's snapshot by a later one; an older one changes nothing. */
  save(stream: StreamName, snapshot: Snapshot): Promise<void>;
  close(): Promise<void>;
}
