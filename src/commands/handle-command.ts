import type * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { EventStore, StreamName } from '../adapters/event-store/port';
import type { Decider } from '../domain/decider';
import { queuesFor, type Handled } from './command-batches';
import { foldStream, type DomainEventShape } from './fold-stream';

export type { Handled };

/**
 * Folds a stream, decides, and appends with the revision it read. Commands on one stream are decided one
 * after another in this process, those waiting together written together (runBatch); a conflict with
 * another process starts the cycle again on the new history, so a decision always sees every event before
 * its own. `position` is that of the last event of the append that carried the command's events.
 */
export const handleCommand = <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: Decider<Command, Event, State, Rejection>,
  codec: t.Decoder<unknown, Event>,
  command: Command,
): Promise<E.Either<Rejection, Handled<Event, State>>> =>
  new Promise((resolve, reject) => queuesFor(store).submit(store, stream, { command, decider, codec, resolve, reject }));

/** A stream's current state (for reads that need the aggregate itself, e.g. the ledger). */
export const loadState = async <Command, Event extends DomainEventShape, State, Rejection>(
  store: EventStore,
  stream: StreamName,
  decider: Decider<Command, Event, State, Rejection>,
  codec: t.Decoder<unknown, Event>,
): Promise<State> => (await foldStream(store, stream, decider, codec)).state;
