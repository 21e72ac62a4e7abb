import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { DomainEvent, knownEventTypes } from '../domain/all-events';
import { type Backoff, keepSubscribed } from './keep-subscribed';

/** What every consumer of the log gets: the event decoded by its codec, and where it was recorded. */
export type DomainEventHandler = (event: DomainEvent, recorded: RecordedEvent) => Promise<void> | void;

export interface FollowLogOptions {
  /** who follows: failures are logged with it */
  readonly name: string;
  /** exclusive: the first event delivered is the one after it; null or omitted: from the start */
  readonly fromPosition?: bigint | null;
  readonly log: Logger;
  readonly backoff?: Backoff;
  /** called with every recorded event once its handler is done (known to the domain or not): progress */
  readonly handled?: (recorded: RecordedEvent) => void;
}

/** Frozen all the way down: one decoded event is handed to every follower, so none may change it for the others. */
const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

/**
 * Decoded once per recorded event, whoever follows the log: every subscriber reads every event, and the
 * store hands them all the same (frozen) RecordedEvent, so the first decode serves the others.
 */
const decodedEvents = new WeakMap<RecordedEvent, DomainEvent>();

/** The event decoded, or null for a type the domain does not know (a part that is not ours). */
export const decodeIfKnown = (recorded: RecordedEvent): DomainEvent | null => {
  if (!knownEventTypes.has(recorded.type)) return null;
  let decoded = decodedEvents.get(recorded);
  if (decoded === undefined) {
    decoded = deepFreeze(decodeRecordedEvent(DomainEvent, recorded));
    decodedEvents.set(recorded, decoded);
  }
  return decoded;
};

/**
 * The one way to consume the log: a catch-up subscription that survives failures (keepSubscribed) and
 * hands each event decoded (io-ts, domain/all-events.ts), never by its raw type name. An event of a type
 * the domain does not know belongs to no part of ours and is passed over; one of a known type that does
 * not decode stops the subscription (CorruptEvent), as it does everywhere else.
 */
export const followLog = (eventStore: EventStore, options: FollowLogOptions, handler: DomainEventHandler): Subscription =>
  keepSubscribed(
    eventStore,
    {
      name: options.name,
      ...(options.fromPosition === null || options.fromPosition === undefined ? {} : { fromPosition: options.fromPosition }),
      log: options.log,
      ...(options.backoff ? { backoff: options.backoff } : {}),
    },
    async (recorded) => {
      const event = decodeIfKnown(recorded);
      if (event !== null) await handler(event, recorded);
      options.handled?.(recorded);
    },
  );
