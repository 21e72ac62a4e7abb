/**
 * The rhythm of a run: one tick every `tickMs`, or at once when woken (the page changed, or the run
 * must end), until something asks for the end. The first end cause wins: a leave request arriving
 * while the bot is already being removed must not change why the run ended. Long waits (navigation,
 * a driver waiting for an element) go through `unlessEnded`, so that an end cause interrupts them.
 */
import type { BotLog } from '../bot-log';
import type { EndCause } from '../end-codes';

export class TickLoop {
  private cause: EndCause | null = null;
  private wake: (() => void) | null = null;
  private wakePending = false;
  private announceEnd: () => void = () => undefined;
  private readonly ended = new Promise<void>((resolve) => (this.announceEnd = resolve));
  private readonly endSignal = new AbortController();

  constructor(private readonly log: BotLog) {}

  get endCause(): EndCause | null {
    return this.cause;
  }

  /** Aborted when the run must end: work that can be stopped (a fetch) stops then, instead of going on unwatched. */
  get signal(): AbortSignal {
    return this.endSignal.signal;
  }

  requestEnd(cause: EndCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.log.info(`ending: ${cause.kind}${'reason' in cause ? ` (${cause.reason})` : ''}${'message' in cause ? `: ${cause.message}` : ''}`);
    this.wakeUp();
    this.announceEnd();
    this.endSignal.abort();
  }

  /**
   * Waits for `work` unless the run ends first; `{ended: true}` then, and `work` goes on unwatched
   * (its failure is ignored: the end closes the page it works on).
   */
  async unlessEnded<T>(work: Promise<T>): Promise<{ readonly ended: false; readonly value: T } | { readonly ended: true }> {
    work.catch(() => undefined);
    if (this.cause) return { ended: true };
    return Promise.race([work.then((value) => ({ ended: false as const, value })), this.ended.then(() => ({ ended: true as const }))]);
  }

  /** Runs the next tick now. */
  wakeUp(): void {
    this.wakePending = true;
    this.wake?.();
  }

  async run(tick: () => Promise<void>, tickMs: number): Promise<void> {
    while (!this.cause) {
      await tick();
      if (this.cause) break;
      // woken while the tick was reading the page: what changed may not be in that reading yet
      if (this.wakePending) {
        this.wakePending = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, tickMs);
        this.wake = () => (clearTimeout(t), resolve());
      });
      this.wake = null;
      this.wakePending = false;
    }
  }
}
