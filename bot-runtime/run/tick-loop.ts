/**
 * The rhythm of a run: one tick every `tickMs`, or at once when woken (the page changed, or the run
 * must end), until something asks for the end. The first end cause wins: a leave request arriving
 * while the bot is already being removed must not change why the run ended.
 */
import type { BotLog } from '../bot-log';
import type { EndCause } from '../end-codes';

export class TickLoop {
  private cause: EndCause | null = null;
  private wake: (() => void) | null = null;
  private wakePending = false;

  constructor(private readonly log: BotLog) {}

  get endCause(): EndCause | null {
    return this.cause;
  }

  requestEnd(cause: EndCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.log.info(`ending: ${cause.kind}${'reason' in cause ? ` (${cause.reason})` : ''}${'message' in cause ? `: ${cause.message}` : ''}`);
    this.wakeUp();
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
