import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { WrongExpectedRevision, type EventStore, type StreamName } from '../adapters/event-store/port';
import type { Decider } from '../domain/decider';
import { deterministicEventId } from './event-ids';
import { foldStream, type DomainEventShape } from './fold-stream';
import { stateCacheFor } from './stream-state-cache';
import { snapshotIfDue } from './stream-snapshots';

export interface Handled<Event, State> {
  readonly events: readonly Event[];
  readonly state: State;
  /** Global position of the last event of the append that wrote the command's events; null when it changed nothing. */
  readonly position: bigint | null;
}

const MAX_ATTEMPTS = 10;

/** Another process won the race: wait a little, longer each time, with jitter so the losers spread out. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt, 6)));

/** One command's part of a batch, as decided on the state left by the commands before it. */
type Decided<Event, State, Rejection> =
  | { readonly kind: 'rejected'; readonly rejection: Rejection }
  | { readonly kind: 'decided'; readonly events: readonly Event[]; readonly state: State }
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Decides the commands of one stream that are waiting, in order, each on the state the ones before it
 * leave, and appends all their events with one expected revision: one append (one commit) for a burst of
 * reservations on a team's ledger, exactly as if they had run one after another. A conflict with another
 * process decides them all again on the new history. A command decided on the state of earlier commands of
 * the batch gets its answer, a refusal included, only once those events are written; one decided before
 * any of them gets its answer whatever becomes of the append.
 */
const runBatch = async <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  batch: readonly Queued<Command, Event, State, Rejection>[],
): Promise<void> => {
  const { decider, codec } = batch[0]!;
  for (let attempt = 1; ; attempt++) {
    let folded: { state: State; revision: bigint | null };
    try {
      folded = await foldStream(store, stream, decider, codec);
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    let current = folded.state;
    const events: Event[] = [];
    const decided = batch.map((item) => {
      const onWrittenState = events.length === 0;
      try {
        const decision = decider.decide(item.command, current);
        if (E.isLeft(decision)) return { onWrittenState, outcome: { kind: 'rejected', rejection: decision.left } as Decided<Event, State, Rejection> };
        const next = decision.right.reduce(decider.evolve, current);
        events.push(...decision.right);
        current = next;
        return { onWrittenState, outcome: { kind: 'decided', events: decision.right, state: next } as Decided<Event, State, Rejection> };
      } catch (error) {
        return { onWrittenState, outcome: { kind: 'failed', error } as Decided<Event, State, Rejection> };
      }
    });
    const answer = (position: bigint | null) =>
      batch.forEach((item, i) => {
        const { outcome } = decided[i]!;
        if (outcome.kind === 'failed') return item.reject(outcome.error);
        if (outcome.kind === 'rejected') return item.resolve(E.left(outcome.rejection));
        item.resolve(E.right({ events: outcome.events, state: outcome.state, position: outcome.events.length === 0 ? null : position }));
      });
    if (events.length === 0) return answer(null);

    const { revision } = folded;
    const firstNewRevision = revision === null ? 0n : revision + 1n;
    try {
      const appended = events.map((e, i) => ({ id: deterministicEventId(stream, firstNewRevision + BigInt(i), e.type, e.data), type: e.type, data: e.data }));
      const result = await store.appendToStream(stream, appended, revision === null ? 'no_stream' : revision);
      const cache = stateCacheFor(store);
      const at = { revision: result.nextExpectedRevision, eventId: appended.at(-1)!.id, state: current };
      const snapshotAt = await snapshotIfDue(store, stream, decider as Decider<unknown, unknown, State, unknown>, at, cache.get(stream)?.snapshotAt ?? null);
      cache.set(stream, { revision: result.nextExpectedRevision, state: current, snapshotAt });
      return answer(result.position);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) {
        // Answers given on the written state stand; the others rested on events that were not written.
        batch.forEach((item, i) => (decided[i]!.onWrittenState && decided[i]!.outcome.kind !== 'decided' ? answerAlone(item, decided[i]!.outcome) : item.reject(error)));
        return;
      }
      await backoff(attempt);
    }
  }
};

const answerAlone = <Command, Event, State, Rejection>(item: Queued<Command, Event, State, Rejection>, outcome: Decided<Event, State, Rejection>): void => {
  if (outcome.kind === 'failed') return item.reject(outcome.error);
  if (outcome.kind === 'rejected') return item.resolve(E.left(outcome.rejection));
  item.resolve(E.right({ events: outcome.events, state: outcome.state, position: null }));
};

interface Queued<Command, Event, State, Rejection> {
  readonly command: Command;
  readonly decider: Decider<Command, Event, State, Rejection>;
  readonly codec: t.Decoder<unknown, Event>;
  readonly resolve: (answer: E.Either<Rejection, Handled<Event, State>>) => void;
  readonly reject: (error: unknown) => void;
}

/** At most this many commands in one batch, so that one append stays a modest write. */
const MAX_BATCH = 256;

/** The commands waiting per stream of one store instance, run batch after batch (one process). */
class StreamQueues {
  private readonly waiting = new Map<StreamName, Queued<any, any, any, any>[]>();

  submit(store: EventStore, stream: StreamName, item: Queued<any, any, any, any>): void {
    const queue = this.waiting.get(stream);
    if (queue !== undefined) return void queue.push(item);
    this.waiting.set(stream, [item]);
    void this.drain(store, stream);
  }

  private async drain(store: EventStore, stream: StreamName): Promise<void> {
    const queue = this.waiting.get(stream)!;
    // Commands asked for in the same turn (a batch of bots) join the first batch.
    await Promise.resolve();
    while (queue.length > 0) {
      const { decider, codec } = queue[0]!;
      let size = 1;
      while (size < queue.length && size < MAX_BATCH && queue[size]!.decider === decider && queue[size]!.codec === codec) size++;
      const batch = queue.splice(0, size);
      // runBatch answers every command itself; anything it let through still answers them, and the stream goes on.
      await runBatch(store, stream, batch).catch((error: unknown) => batch.forEach((item) => item.reject(error)));
    }
    this.waiting.delete(stream);
  }
}

const queues = new WeakMap<EventStore, StreamQueues>();
export const queuesFor = (store: EventStore): StreamQueues => {
  let found = queues.get(store);
  if (!found) {
    found = new StreamQueues();
    queues.set(store, found);
  }
  return found;
};

