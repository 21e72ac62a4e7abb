import type * as t from 'io-ts';
import type { EventStore, StreamName } from '../adapters/event-store/port';
import type { Decider } from '../domain/decider';
import { decodeRecordedEvent } from './decode-recorded-event';
import { stateCacheFor } from './stream-state-cache';

export interface DomainEventShape {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** The stream's current state and revision (null: no stream), from the cache plus what was appended since. */
export const foldStream = async <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: Decider<Command, Event, State, Rejection>,
  codec: t.Decoder<unknown, Event>,
): Promise<{ state: State; revision: bigint | null }> => {
  const cache = stateCacheFor(store);
  const cached = cache.get(stream);
  const recorded = await store.readStream(stream, cached ? { fromRevision: cached.revision + 1n } : {});
  const state = recorded
    .map((r) => decodeRecordedEvent(codec, r))
    .reduce(decider.evolve, cached ? (cached.state as State) : decider.initialState());
  const revision = recorded.length > 0 ? recorded[recorded.length - 1]!.revision : (cached?.revision ?? null);
  if (revision !== null) cache.set(stream, { revision, state });
  return { state, revision };
};

