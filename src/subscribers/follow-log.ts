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

/** The event decoded, or null for a type the domain does not know (a part that is not ours). */
export const decodeIfKnown = (recorded: RecordedEvent): DomainEvent | null =>
  knownEventTypes.has(recorded.type) ? decodeRecordedEvent(DomainEvent, recorded) : null;

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
