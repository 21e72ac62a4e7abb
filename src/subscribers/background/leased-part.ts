import type Logger from 'bunyan';
import type { CheckpointStore, Lease } from '../../adapters/checkpoint-store/port';
import type { BackgroundPart, LeaseHolding, RunningPart } from './background-part';

export interface LeaseTiming {
  readonly ttlMs: number;
  readonly renewEveryMs: number;
  readonly retryEveryMs: number;
}

/** A holder counts a lease as its own only until this share of the TTL before the store's expiry. */
const SAFETY_MARGIN = 0.2;

/**
 * Runs a part only while this process holds the part's lease. It tries to take the lease at start and
 * then every `retryEveryMs`; holding it, it renews every `renewEveryMs`. When a renewal fails (lost, or
 * the store cannot be reached before the lease would lapse) the part is stopped at once and the keeper
 * goes back to standing by. On stop, the part stops first and the lease is released, so that a standby
 * takes over on its next try rather than after the TTL.
 */
export class LeasedPart {
  private holding: { lease: Lease; renewedFromMs: number; readonly abort: AbortController } | null = null;
  private running: RunningPart | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  /** every holding this keeper had: what a test or an operator reads to see takeovers */
  readonly history: { readonly epoch: number; readonly fromMs: number; toMs: number | null }[] = [];

  constructor(
    private readonly part: BackgroundPart & { readonly lease: string },
    private readonly store: CheckpointStore,
    private readonly owner: string,
    private readonly timing: LeaseTiming,
    private readonly log: Logger,
  ) {}

  /** Whether this process runs the part now. */
  get holds(): boolean {
    return this.running !== null;
  }

  /** Tries once at once (so that a single process starts with everything running), then keeps trying. */
  async start(): Promise<void> {
    await this.step();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.busy;
    await this.letGo('stopping');
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.busy = this.step().finally(() => this.schedule());
    }, this.holding ? this.timing.renewEveryMs : this.timing.retryEveryMs);
    this.timer.unref();
  }

  private async step(): Promise<void> {
    if (this.stopped) return;
    try {
      if (this.holding) await this.renew();
      else await this.acquire();
    } catch (err) {
      this.log.error({ err, lease: this.part.lease }, 'lease store failed');
      // Not reached in time: the lease may lapse meanwhile, so the part must not go on as if it held it.
      if (this.holding && !this.isHeld()) await this.letGo('lease store unreachable');
    }
  }

  private async acquire(): Promise<void> {
    const askedMs = Date.now();
    const lease = await this.store.acquireLease(this.part.lease, this.owner, this.timing.ttlMs);
    if (lease === null || this.stopped) {
      if (lease) await this.store.releaseLease(lease);
      return;
    }
    const abort = new AbortController();
    this.holding = { lease, renewedFromMs: askedMs, abort };
    const current = () => (this.holding?.abort === abort ? this.holding : null);
    const holding: LeaseHolding = {
      get lease() {
        return current()?.lease ?? lease;
      },
      held: () => current() !== null && this.isHeld(),
      lost: abort.signal,
    };
    this.history.push({ epoch: lease.epoch, fromMs: Date.now(), toMs: null });
    this.log.info({ lease: this.part.lease, epoch: lease.epoch, owner: this.owner }, 'took the lease: running it here');
    try {
      this.running = await this.part.start(holding);
    } catch (err) {
      this.log.error({ err, lease: this.part.lease }, 'could not start what the lease runs; giving the lease up');
      this.holding = null;
      abort.abort();
      await this.store.releaseLease(lease).catch(() => undefined);
    }
  }

  private async renew(): Promise<void> {
    const holding = this.holding!;
    const askedMs = Date.now();
    const renewed = await this.store.renewLease(holding.lease, this.timing.ttlMs);
    if (renewed === null) return this.letGo('lease lost');
    holding.lease = renewed;
    holding.renewedFromMs = askedMs;
  }

  private isHeld(): boolean {
    return this.holding !== null && Date.now() < this.holding.renewedFromMs + this.timing.ttlMs * (1 - SAFETY_MARGIN);
  }

  private async letGo(why: string): Promise<void> {
    const holding = this.holding;
    if (!holding) return;
    this.holding = null;
    holding.abort.abort();
    const entry = this.history.at(-1);
    if (entry) entry.toMs = Date.now();
    const running = this.running;
    this.running = null;
    if (why !== 'stopping') this.log.warn({ lease: this.part.lease, epoch: holding.lease.epoch, why }, 'no longer holds the lease: stopped what it ran');
    await running?.stop().catch((err) => this.log.error({ err, lease: this.part.lease }, 'stopping after the lease failed'));
    if (why === 'stopping') await this.store.releaseLease(holding.lease).catch(() => undefined);
  }
}
