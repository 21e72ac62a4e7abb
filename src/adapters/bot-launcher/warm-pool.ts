/**
 * Bot processes started before their job, so that a new bot skips Node's start and Chromium's launch
 * (BOT_POOL_SIZE of them). A pooled process holds no team's data: it has no job, no token and a fresh
 * Chromium profile until it is taken, and it serves one bot only (it exits with its run, never comes back).
 *
 * The pool refills as soon as a process is taken. A pooled process that exits while it waits (a crash, a
 * kill) is replaced; when replacements keep dying before they are ready, the pool waits longer each time
 * (1 s, 2 s, 4 s … at most a minute), so that a broken host does not spin, and bots are started cold meanwhile.
 */
export interface PooledProcess {
  readonly pid: number | undefined;
  readonly ready: Promise<void>;
  readonly isReady: boolean;
  readonly hasExited: boolean;
  readonly exited: Promise<unknown>;
  /** the pool no longer needs it: it exits (a warm process whose input ends) */
  endInput(): void;
  kill(signal: NodeJS.Signals): void;
}

export interface WarmPoolEvents {
  /** a process of the pool exited before it was taken; `early`: before it was ready */
  onLost?(process: PooledProcess, early: boolean): void;
  onStartFailed?(err: unknown): void;
}

const MAX_BACKOFF_MS = 60_000;
const CLOSE_GRACE_MS = 5_000;

export class WarmPool<P extends PooledProcess> {
  private readonly waiting: P[] = [];
  private closed = false;
  /** replacements that died before they were ready, in a row */
  private failures = 0;
  private backoff: NodeJS.Timeout | null = null;

  constructor(
    readonly size: number,
    private readonly start: () => P,
    private readonly events: WarmPoolEvents = {},
  ) {}

  /** Fills the pool up to its size (nothing while it backs off after failures). */
  fill(): void {
    while (!this.closed && this.backoff === null && this.waiting.length < this.size) {
      let started: P;
      try {
        started = this.start();
      } catch (err) {
        this.events.onStartFailed?.(err);
        this.backOff();
        return;
      }
      this.waiting.push(started);
      void started.ready.then(() => {
        if (!started.hasExited) this.failures = 0;
      });
      void started.exited.then(() => this.onExit(started));
    }
  }

  /** A waiting process, ready ones first (oldest first); null when none waits. The pool refills at once. */
  take(): P | null {
    const index = this.waiting.findIndex((p) => p.isReady && !p.hasExited);
    const at = index >= 0 ? index : this.waiting.findIndex((p) => !p.hasExited);
    if (at < 0) return null;
    const [taken] = this.waiting.splice(at, 1);
    this.fill();
    return taken!;
  }

  /** The processes waiting now (operators and benches: their memory is the pool's cost). */
  get processes(): readonly P[] {
    return [...this.waiting];
  }

  /** Ends every waiting process (their input closes; killed after a grace) and starts no more. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.backoff) clearTimeout(this.backoff);
    this.backoff = null;
    const waiting = this.waiting.splice(0);
    await Promise.all(
      waiting.map(async (p) => {
        p.endInput();
        const timer = setTimeout(() => p.kill('SIGKILL'), CLOSE_GRACE_MS);
        await p.exited;
        clearTimeout(timer);
      }),
    );
  }

  private onExit(process: P): void {
    const at = this.waiting.indexOf(process);
    if (at < 0) return; // taken: its exit is its bot's
    this.waiting.splice(at, 1);
    if (this.closed) return;
    const early = !process.isReady;
    this.events.onLost?.(process, early);
    if (early) {
      this.failures++;
      this.backOff();
    } else this.fill();
  }

  private backOff(): void {
    if (this.closed || this.backoff) return;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, this.failures - 1));
    this.backoff = setTimeout(() => {
      this.backoff = null;
      this.fill();
    }, delay);
    this.backoff.unref();
  }
}
