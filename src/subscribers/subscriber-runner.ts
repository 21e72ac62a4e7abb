import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import { type CheckpointStore, LeaseLost } from '../adapters/checkpoint-store/port';
import type { DomainEvent } from '../domain/all-events';
import type { LeaseHolding } from './background/background-part';
import { followLog } from './follow-log';
import type { Backoff } from './keep-subscribed';

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

const SAVE_EVERY_MS = 200;

/**
 * Runs one subscriber from its own checkpoint. A failing handler is retried (after a backoff) with the same
 * event rather than skip it; a lost subscription resumes from the last handled event. Under a lease
 * (`holding`), no event is handled once the lease may have lapsed, and the checkpoint is saved only while
 * the lease is held (the store refuses a stale holder): a former holder can neither act nor move it.
 */
export class SubscriberRunner {
  private subscription: Subscription | null = null;
  /** the last position to save, not saved yet */
  private unsaved: bigint | null = null;
  private lastSavedMs = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly eventStore: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly subscriber: Subscriber,
    private readonly log: Logger,
    private readonly backoff?: Backoff,
    private readonly holding: LeaseHolding | null = null,
  ) {}

  private get checkpointName(): string {
    return `subscriber:${this.subscriber.name}`;
  }

  async start(): Promise<void> {
    const from = await this.checkpoints.loadCheckpoint(this.checkpointName);
    this.subscription = followLog(
      this.eventStore,
      {
        name: this.subscriber.name,
        fromPosition: from,
        log: this.log,
        ...(this.backoff ? { backoff: this.backoff } : {}),
        handled: (recorded) => {
          const held = this.subscriber.replayFrom?.();
          if (held === undefined || recorded.position < held) this.noteHandled(recorded.position);
        },
      },
      async (event: DomainEvent, recorded: RecordedEvent) => {
        if (this.holding !== null && !this.holding.held()) throw new LeaseLost(this.holding.lease);
        await this.subscriber.handle(event, recorded);
      },
    );
  }

  /**
   * Saved at most every SAVE_EVERY_MS (a write per event would cost as much as the work): after a crash the
   * handlers see at most that much again, which they are built for (idempotent).
   */
  private noteHandled(position: bigint): void {
    this.unsaved = position;
    const wait = this.lastSavedMs + SAVE_EVERY_MS - Date.now();
    if (wait <= 0) return void this.flush();
    this.flushTimer ??= setTimeout(() => void this.flush(), wait);
  }

  private flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const position = this.unsaved;
    this.unsaved = null;
    if (position === null) return this.saving;
    this.lastSavedMs = Date.now();
    this.saving = this.saving
      .then(() => this.checkpoints.saveCheckpoint(this.checkpointName, position, this.holding?.lease))
      .catch((err) =>
        err instanceof LeaseLost
          ? this.log.warn({ subscriber: this.subscriber.name, lease: err.lease.name }, 'checkpoint not saved: the lease was lost (its new holder goes on from its own)')
          : this.log.error({ err, subscriber: this.subscriber.name }, 'could not save the checkpoint; events after it will be handled again'),
      );
    return this.saving;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    await this.flush();
  }
}
