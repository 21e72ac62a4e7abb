import type Logger from 'bunyan';
import type { EventStore } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { ReadModelProgress } from '../projections/read-model-progress';
import { PROJECTIONS_CHECKPOINT } from './projection-runner';

interface Waiter {
  readonly position: bigint;
  readonly resolve: (reached: boolean) => void;
}

/** Looked at this often while a writer waits, and this often otherwise. */
const WAITING_POLL_MS = 20;
const IDLE_POLL_MS = 1000;

/**
 * The progress of shared read models (MongoDB), which one process projects under the `projector` lease:
 * every process reads the projector's checkpoint (it only moves forward) and lets writers wait for it,
 * so a POST on one instance is readable at once through any other.
 */
export class SharedReadModelProgress implements ReadModelProgress {
  private reached: bigint | null = null;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly readStore: ReadStore,
    private readonly log: Logger,
  ) {}

  get position(): bigint | null {
    return this.reached;
  }

  /**
   * Starts following, and resolves once the shared read models reflect the log as it was at this start
   * (the projector may be this process, another one, or one that takes over meanwhile).
   */
  async start(eventStore: EventStore): Promise<void> {
    this.stopped = false;
    await this.look();
    this.schedule();
    const head = await lastPositionOf(eventStore);
    const startedMs = Date.now();
    while (!this.stopped && !(await this.waitForPosition(head, 10_000))) {
      this.log.warn({ head: head?.toString(), reached: this.reached?.toString() ?? null, waited_s: Math.round((Date.now() - startedMs) / 1000) }, 'waiting for the projector to catch the shared read models up');
    }
  }

  waitForPosition(position: bigint | null, timeoutMs = 5000): Promise<boolean> {
    if (position === null || (this.reached !== null && position <= this.reached)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = { position, resolve };
      this.waiters.push(waiter);
      this.schedule(WAITING_POLL_MS);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(inMs = this.waiters.length > 0 ? WAITING_POLL_MS : IDLE_POLL_MS): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.look()
        .catch((err) => this.log.error({ err }, 'could not read the projector checkpoint'))
        .finally(() => this.schedule());
    }, inMs);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    const checkpoint = await this.readStore.loadCheckpoint(PROJECTIONS_CHECKPOINT);
    if (checkpoint === null || (this.reached !== null && checkpoint <= this.reached)) return;
    this.reached = checkpoint;
    this.waiters = this.waiters.filter((w) => (w.position <= checkpoint ? (w.resolve(true), false) : true));
  }
}

/** The position of the last event in the log (null: empty), read by paging to its end. */
const lastPositionOf = async (eventStore: EventStore): Promise<bigint | null> => {
  let last: bigint | null = null;
  for (;;) {
    const page = await eventStore.readAll({ ...(last === null ? {} : { fromPosition: last }), maxCount: 1000 });
    if (page.length === 0) return last;
    last = page.at(-1)!.position;
  }
};
