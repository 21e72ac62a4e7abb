import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { DomainEvent, knownEventTypes } from '../domain/all-events';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { applyEventToProjections, ensureProjectionIndexes } from './apply-event';
import type { Projection } from './projection';
import { type Backoff, keepSubscribed } from '../adapters/event-store/keep-subscribed';

export const PROJECTIONS_CHECKPOINT = 'projections';
const CATCH_UP_BATCH = 1000;

interface Waiter {
  readonly position: bigint;
  readonly resolve: (reached: boolean) => void;
}

/**
 * Keeps the read models up to date from the event log and lets writers wait until their own write is
 * visible (read-your-writes).
 */
export class ProjectionRunner {
  private subscription: Subscription | null = null;
  private reached: bigint | null = null;
  private waiters: Waiter[] = [];

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly Projection<any>[],
    private readonly log: Logger,
    private readonly backoff?: Backoff,
  ) {}

  /** Catches up with the whole log before returning, so a freshly started service never serves stale reads. */
  async start(): Promise<void> {
    await ensureProjectionIndexes(this.readStore, this.projections);
    const checkpoint = await this.readStore.loadCheckpoint(PROJECTIONS_CHECKPOINT);
    this.reached = checkpoint;
    for (;;) {
      const batch = await this.eventStore.readAll({ ...(this.reached === null ? {} : { fromPosition: this.reached }), maxCount: CATCH_UP_BATCH });
      for (const event of batch) await this.apply(event);
      if (batch.length < CATCH_UP_BATCH) break;
    }
    // A failed subscription (lost connection, a failing write to the read store) resumes from the last applied event.
    this.subscription = keepSubscribed(
      this.eventStore,
      {
        name: 'projections',
        ...(this.reached === null ? {} : { fromPosition: this.reached }),
        log: this.log,
        ...(this.backoff ? { backoff: this.backoff } : {}),
      },
      (event) => this.apply(event),
    );
  }

  private async apply(recorded: RecordedEvent): Promise<void> {
    if (knownEventTypes.has(recorded.type)) {
      await applyEventToProjections(this.readStore, this.projections, decodeRecordedEvent(DomainEvent, recorded), recorded.position);
    }
    await this.readStore.saveCheckpoint(PROJECTIONS_CHECKPOINT, recorded.position);
    this.reached = recorded.position;
    this.waiters = this.waiters.filter((w) => (w.position <= recorded.position ? (w.resolve(true), false) : true));
  }

  /** Resolves true once every read model reflects `position`, false after `timeoutMs`. */
  waitForPosition(position: bigint | null, timeoutMs = 5000): Promise<boolean> {
    if (position === null || (this.reached !== null && position <= this.reached)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = { position, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  /** The last position every read model reflects; null before the first event. */
  get position(): bigint | null {
    return this.reached;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
