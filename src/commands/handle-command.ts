import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { WrongExpectedRevision, type EventStore, type StreamName } from '../adapters/event-store/port';
import type { Decider } from '../domain/decider';
import { decodeRecordedEvent } from './decode-recorded-event';
import { deterministicEventId } from './event-ids';
import { KeyedMutex } from './keyed-mutex';
import { stateCacheFor } from './stream-state-cache';

interface DomainEventShape {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export interface Handled<Event, State> {
  readonly events: readonly Event[];
  readonly state: State;
  /** Global position of the last appended event; null when the command changed nothing. */
  readonly position: bigint | null;
}

type AnyDecider<Command, Event, State, Rejection> = Decider<Command, Event, State, Rejection>;

const MAX_ATTEMPTS = 10;

/** One mutex per store instance: a process serialises its own commands per stream. */
const mutexes = new WeakMap<EventStore, KeyedMutex>();
const mutexFor = (store: EventStore): KeyedMutex => {
  let mutex = mutexes.get(store);
  if (!mutex) {
    mutex = new KeyedMutex();
    mutexes.set(store, mutex);
  }
  return mutex;
};

/** Another process won the race: wait a little, longer each time, with jitter so the losers spread out. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt, 6)));

/** The stream's current state and revision (null: no stream), from the cache plus what was appended since. */
const foldStream = async <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: AnyDecider<Command, Event, State, Rejection>,
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

/**
 * Folds a stream, decides, and appends with the revision it read. Commands on one stream are serialised in
 * this process; a conflict with another process starts the cycle again on the new history, so a decision
 * always sees every event before its own.
 */
export const handleCommand = <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: AnyDecider<Command, Event, State, Rejection>,
  codec: t.Decoder<unknown, Event>,
  command: Command,
): Promise<E.Either<Rejection, Handled<Event, State>>> =>
  mutexFor(store).run(stream, async () => {
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await foldStream(store, stream, decider, codec);
      const decision = decider.decide(command, state);
      if (E.isLeft(decision)) return decision;
      const events = decision.right;
      if (events.length === 0) return E.right({ events, state, position: null });

      const firstNewRevision = revision === null ? 0n : revision + 1n;
      try {
        const result = await store.appendToStream(
          stream,
          events.map((e, i) => ({ id: deterministicEventId(stream, firstNewRevision + BigInt(i), e.type, e.data), type: e.type, data: e.data })),
          revision === null ? 'no_stream' : revision,
        );
        const next = events.reduce(decider.evolve, state);
        stateCacheFor(store).set(stream, { revision: result.nextExpectedRevision, state: next });
        return E.right({ events, state: next, position: result.position });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw error;
        await backoff(attempt);
      }
    }
  });

/** A stream's current state (for reads that need the aggregate itself, e.g. the ledger). */
export const loadState = async <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: AnyDecider<Command, Event, State, Rejection>,
  codec: t.Decoder<unknown, Event>,
): Promise<State> => (await foldStream(store, stream, decider, codec)).state;
