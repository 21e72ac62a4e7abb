import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import type { CheckpointStore } from '../adapters/checkpoint-store/port';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { DomainEvent, knownEventTypes } from '../domain/all-events';
import { type Backoff, keepSubscribed } from '../adapters/event-store/keep-subscribed';

/** A side effect driven by events. Delivery is at least once, so handlers must be idempotent. */
export interface Subscriber {
  readonly name: string;
  handle(event: DomainEvent, recorded: RecordedEvent): Promise<void>;
  /**
   * The position of the oldest event this subscriber still needs after a restart (state it keeps in memory
   * only), if any: the checkpoint is never saved at or past it, so a restarted service replays from there.
   */
  replayFrom?(): bigint | undefined;
}

/**
 * Runs one subscriber from its own checkpoint. A failing handler is retried (after a backoff) with the same
 * event rather than skip it; a lost subscription resumes from the last handled event.
 */
export class SubscriberRunner {
  private subscription: Subscription | null = null;

  constructor(
    private readonly eventStore: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly subscriber: Subscriber,
    private readonly log: Logger,
    private readonly backoff?: Backoff,
  ) {}

  async start(): Promise<void> {
    const checkpointName = `subscriber:${this.subscriber.name}`;
    const from = await this.checkpoints.loadCheckpoint(checkpointName);
    this.subscription = keepSubscribed(
      this.eventStore,
      {
        name: this.subscriber.name,
        ...(from === null ? {} : { fromPosition: from }),
        log: this.log,
        ...(this.backoff ? { backoff: this.backoff } : {}),
      },
      async (recorded) => {
        if (knownEventTypes.has(recorded.type)) await this.subscriber.handle(decodeRecordedEvent(DomainEvent, recorded), recorded);
        const held = this.subscriber.replayFrom?.();
        if (held === undefined || recorded.position < held) await this.checkpoints.saveCheckpoint(checkpointName, recorded.position);
      },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
