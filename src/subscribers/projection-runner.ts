import type { ReadModelProgress } from '../projections/read-model-progress';
import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { applyEventToProjections, ensureProjectionIndexes } from '../projections/apply-event';
import type { Projection } from '../projections/projection';
import { LeaseLost } from '../adapters/checkpoint-store/port';
import type { LeaseHolding } from './background/background-part';
import { decodeIfKnown, followLog } from './follow-log';
import { markProjectedEvent, PROJECTIONS_CHECKPOINT, resumePoint } from './projected-log';
import type { Backoff } from './keep-subscribed';

export { PROJECTIONS_CHECKPOINT };
const CATCH_UP_BATCH = 1000;
/** How many events at most pass between two marks of which event the read models reflect (projected-log.ts). */
const MARK_EVERY = 1000n;

interface Waiter {
  readonly position: bigint;
  readonly resolve: (reached: boolean) => void;
}

/**
 * Keeps the read models up to date from the event log and lets writers wait until their own write is
 * visible (read-your-writes). In memory every api instance runs its own; on a shared read store (MongoDB)
 * one runs, under the `projector` lease (`holding`), and stops applying the moment the lease may have
 * lapsed: documents are guarded by position, so a late write of a former holder changes nothing.
 */
export class ProjectionRunner implements ReadModelProgress {
  private subscription: Subscription | null = null;
  private reached: bigint | null = null;
  private markedAt: bigint | null = null;
  private waiters: Waiter[] = [];

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly Projection<any>[],
    private readonly log: Logger,
    private readonly backoff?: Backoff,
    private readonly holding: LeaseHolding | null = null,
  ) {}

  /**
   * Catches up with the log before returning, so a freshly started service never serves stale reads: from
   * the read store's checkpoint (a persistent store resumes where it stopped), or from the start.
   */
  async start(): Promise<void> {
    await ensureProjectionIndexes(this.readStore, this.projections);
    const resumedFrom = await resumePoint(this.eventStore, this.readStore, this.projections, this.log);
    this.reached = resumedFrom;
    let folded = 0;
    for (;;) {
      const batch = await this.eventStore.readAll({ ...(this.reached === null ? {} : { fromPosition: this.reached }), maxCount: CATCH_UP_BATCH });
      if (batch.length === 0) break;
      // A batch commits with its checkpoint (one transaction in SQLite): thousands of events, one commit.
      await this.readStore.atomically(async () => {
        for (const recorded of batch) {
          this.refuseWithoutLease();
          const event = decodeIfKnown(recorded);
          if (event !== null) await applyEventToProjections(this.readStore, this.projections, event, recorded.position);
        }
        await this.saveProgress(batch.at(-1)!);
      });
      this.noteReached(batch.at(-1)!.position);
      folded += batch.length;
      // A turn of the event loop between batches: the read store commits when due (SQLite), others run meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      if (batch.length < CATCH_UP_BATCH) break;
    }
    this.log.info({ resumed_from: resumedFrom?.toString() ?? null, events_folded: folded, position: this.reached?.toString() ?? null }, 'read models caught up with the log');
    // A failed subscription (lost connection, a failing write to the read store) resumes from the last applied event.
    this.subscription = followLog(
      this.eventStore,
      {
        name: 'projections',
        fromPosition: this.reached,
        log: this.log,
        ...(this.backoff ? { backoff: this.backoff } : {}),
        handled: (recorded) => this.noteReached(recorded.position),
      },
      (event, recorded) =>
        this.readStore.atomically(async () => {
          this.refuseWithoutLease();
          await applyEventToProjections(this.readStore, this.projections, event, recorded.position);
          await this.saveProgress(recorded);
        }),
    );
  }

  private refuseWithoutLease(): void {
    if (this.holding !== null && !this.holding.held()) throw new LeaseLost(this.holding.lease);
  }

  /** The checkpoint, and now and then which event it is, in the same transaction as the documents. */
  private async saveProgress(recorded: RecordedEvent): Promise<void> {
    await this.readStore.saveCheckpoint(PROJECTIONS_CHECKPOINT, recorded.position);
    if (this.markedAt === null || recorded.position - this.markedAt >= MARK_EVERY) {
      await markProjectedEvent(this.readStore, recorded);
      this.markedAt = recorded.position;
    }
  }

  private noteReached(position: bigint): void {
    this.reached = position;
    this.waiters = this.waiters.filter((w) => (w.position <= position ? (w.resolve(true), false) : true));
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

  async waitForLog(timeoutMs: number): Promise<boolean> {
    const ahead = await this.eventStore.readAll({ ...(this.reached === null ? {} : { fromPosition: this.reached }), maxCount: CATCH_UP_BATCH });
    return ahead.length === 0 ? true : this.waitForPosition(ahead.at(-1)!.position, timeoutMs);
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
