import { EventEmitter } from 'node:events';
import type { RecordedEvent, SubscribeOptions, Subscription } from './port';

/** Where a polling subscription reads from and what wakes it: the SQLite and PostgreSQL stores give one each. */
interface SubscriptionSource {
  /** Events after `after` (exclusive; undefined: from the start) in position order, at most `batchSize`. */
  read(after: bigint | undefined): readonly RecordedEvent[] | Promise<readonly RecordedEvent[]>;
  readonly batchSize: number;
  /** How long the subscription sleeps when nothing woke it: the fallback for appends no wake-up reached. */
  readonly pollIntervalMs: number;
  /** Bumped on every wake-up, so that a subscription never sleeps past an append it raced with. */
  wakeCount(): number;
  /** Calls `wake` once on the next wake-up; returns a function that cancels the wait. */
  waitForWake(wake: () => void): () => void;
  forget(): void;
}

/**
 * A catch-up subscription that reads `position > last delivered` in batches and sleeps between them until
 * woken (an append) or the poll interval passed. Sound only on a store whose positions become visible in
 * order: a position that committed after a greater one would be passed over for good.
 */
class PollingSubscription implements Subscription {
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly source: SubscriptionSource,
    private readonly options: SubscribeOptions,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
  ) {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.done;
  }

  private async run(): Promise<void> {
    // Start on a later tick so that subscribeToAll returns before the first handler call.
    await Promise.resolve();
    let after = this.options.fromPosition;
    try {
      while (!this.stopped) {
        const seen = this.source.wakeCount();
        const batch = await this.source.read(after);
        for (const event of batch) {
          if (this.stopped) return;
          await this.handler(event);
          after = event.position;
        }
        if (batch.length < this.source.batchSize && this.source.wakeCount() === seen) await this.sleep();
      }
    } catch (error) {
      // A failed handler (or read) must not be skipped: the subscription dies and its owner decides what to do.
      this.stopped = true;
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.source.forget();
    }
  }

  private sleep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        cancel();
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(wake, this.source.pollIntervalMs);
      const cancel = this.source.waitForWake(wake);
      this.wake = wake;
    });
  }
}

export interface PollingSource {
  /** Events after `after` (exclusive; undefined: from the start) in position order, at most `maxCount`. */
  read(after: bigint | undefined, maxCount: number): readonly RecordedEvent[] | Promise<readonly RecordedEvent[]>;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
}

/** A store's polling subscriptions: made here, woken together on an append, stopped together on close. */
export class PollingSubscriptions {
  private readonly woken = new EventEmitter();
  private wakeCount = 0;
  private readonly running = new Set<PollingSubscription>();

  constructor(private readonly source: PollingSource) {
    this.woken.setMaxListeners(0);
  }

  /** Something was appended: every sleeping subscription reads now instead of at its next poll. */
  wake(): void {
    this.wakeCount += 1;
    this.woken.emit('wake');
  }

  subscribe(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const { read, batchSize, pollIntervalMs } = this.source;
    const subscription: PollingSubscription = new PollingSubscription(
      {
        read: (after) => read(after, batchSize),
        batchSize,
        pollIntervalMs,
        wakeCount: () => this.wakeCount,
        waitForWake: (wake) => {
          this.woken.once('wake', wake);
          return () => this.woken.off('wake', wake);
        },
        forget: () => this.running.delete(subscription),
      },
      options,
      handler,
    );
    this.running.add(subscription);
    return subscription;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((subscription) => subscription.stop()));
  }
}
