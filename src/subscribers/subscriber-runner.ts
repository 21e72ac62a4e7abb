import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { DomainEvent, knownEventTypes } from '../domain/all-events';

/** A side effect driven by events. Delivery is at least once, so handlers must be idempotent. */
export interface Subscriber {
  readonly name: string;
  handle(event: DomainEvent, recorded: RecordedEvent): Promise<void>;
}

/** Runs one subscriber from its own checkpoint; a failing handler stops it loudly rather than skip an event. */
export class SubscriberRunner {
  private subscription: Subscription | null = null;

  constructor(
    private readonly eventStore: EventStore,
    private readonly checkpoints: ReadStore,
    private readonly subscriber: Subscriber,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const checkpointName = `subscriber:${this.subscriber.name}`;
    const from = await this.checkpoints.loadCheckpoint(checkpointName);
    this.subscription = this.eventStore.subscribeToAll(
      {
        ...(from === null ? {} : { fromPosition: from }),
        onError: (err) => this.log.error({ err, subscriber: this.subscriber.name }, 'subscriber stopped'),
      },
      async (recorded) => {
        if (knownEventTypes.has(recorded.type)) await this.subscriber.handle(decodeRecordedEvent(DomainEvent, recorded), recorded);
        await this.checkpoints.saveCheckpoint(checkpointName, recorded.position);
      },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
