import type * as t from 'io-ts';
import type { EventStore, StreamName } from '../adapters/event-store/port';
import type { Decider } from '../domain/decider';
import { decodeRecordedEvent } from './decode-recorded-event';
import { stateCacheFor } from './stream-state-cache';
import { snapshotIfDue, startFromSnapshot } from './stream-snapshots';

export interface DomainEventShape {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/**
 * The stream's current state and revision (null: no stream), from the cache plus what was appended since;
 * after a start, from the stream's snapshot (when its aggregate keeps them) plus what came after it.
 */
export const foldStream = async <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: Decider<Command, Event, State, Rejection>,
  codec: t.Decoder<unknown, Event>,
): Promise<{ state: State; revision: bigint | null }> => {
  const cache = stateCacheFor(store);
  const cached = cache.get(stream);
  const snapshot = cached ? null : await startFromSnapshot(store, stream, decider as Decider<unknown, unknown, State, unknown>);
  const start = cached ? { state: cached.state as State, revision: cached.revision } : snapshot;
  const recorded = snapshot ? snapshot.after : await store.readStream(stream, start ? { fromRevision: start.revision + 1n } : {});
  const state = recorded.map((r) => decodeRecordedEvent(codec, r)).reduce(decider.evolve, start ? start.state : decider.initialState());
  const last = recorded.at(-1);
  const revision = last?.revision ?? start?.revision ?? null;
  if (revision === null) return { state, revision };
  const earlierSnapshot = cached?.snapshotAt ?? snapshot?.revision ?? null;
  const snapshotAt = last ? await snapshotIfDue(store, stream, decider as Decider<unknown, unknown, State, unknown>, { revision, eventId: last.id, state }, earlierSnapshot) : earlierSnapshot;
  cache.set(stream, { revision, state, snapshotAt });
  return { state, revision };
};
