import type { EventStore, RecordedEvent, StreamName } from '../adapters/event-store/port';
import type { SnapshotStore } from '../adapters/snapshot-store/port';
import type { Decider } from '../domain/decider';

/** Where the streams of an event store keep their snapshots (the service registers them at start). */
const snapshotStores = new WeakMap<EventStore, SnapshotStore>();

export const useSnapshots = (eventStore: EventStore, snapshots: SnapshotStore): void => {
  snapshotStores.set(eventStore, snapshots);
};

/** A new snapshot once this many events were folded since the last one. */
export const SNAPSHOT_EVERY = 1000n;

export interface SnapshotStart<State> {
  readonly state: State;
  readonly revision: bigint;
  /** the stream's events after the snapshot */
  readonly after: readonly RecordedEvent[];
}

/**
 * The stream's state from its snapshot, with the events after it, when there is a snapshot of this
 * version whose event the log still holds at its revision; null otherwise (fold from the start).
 */
export const startFromSnapshot = async <State>(
  store: EventStore,
  stream: StreamName,
  decider: Decider<unknown, unknown, State, unknown>,
): Promise<SnapshotStart<State> | null> => {
  const snapshots = snapshotStores.get(store);
  if (snapshots === undefined || decider.snapshot === undefined) return null;
  const snapshot = await snapshots.load(stream);
  if (snapshot === null || snapshot.version !== decider.snapshot.version) return null;
  const recorded = await store.readStream(stream, { fromRevision: snapshot.revision });
  if (recorded[0]?.id !== snapshot.eventId) return null;
  try {
    return { state: decider.snapshot.decode(snapshot.state), revision: snapshot.revision, after: recorded.slice(1) };
  } catch {
    return null;
  }
};

/**
 * Saves the state as the stream's snapshot when SNAPSHOT_EVERY events were folded since the last one
 * (`snapshotAt`); returns the revision of the stream's latest snapshot.
 */
export const snapshotIfDue = async <State>(
  store: EventStore,
  stream: StreamName,
  decider: Decider<unknown, unknown, State, unknown>,
  at: { readonly revision: bigint; readonly eventId: string; readonly state: State },
  snapshotAt: bigint | null,
): Promise<bigint | null> => {
  const snapshots = snapshotStores.get(store);
  if (snapshots === undefined || decider.snapshot === undefined) return snapshotAt;
  if (at.revision - (snapshotAt ?? -1n) < SNAPSHOT_EVERY) return snapshotAt;
  try {
    await snapshots.save(stream, { revision: at.revision, eventId: at.eventId, version: decider.snapshot.version, state: decider.snapshot.encode(at.state) });
    return at.revision;
  } catch {
    // A cache that could not be written: the command stands, the next fold tries again.
    return snapshotAt;
  }
};
