/**
 * Screenshots of the meeting page every few seconds: `screenshots/1.png`, `screenshots/2.png`, … `shoot`
 * gives null for a page that must not be kept (not the platform's, or over the cap): nothing is stored then.
 */
import type { ArtifactStore } from './artifacts';
import type { BotLog } from './bot-log';

export class Screenshots {
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> = Promise.resolve();
  private count = 0;
  private failures = 0;
  private taking = false;

  constructor(
    private readonly shoot: () => Promise<Buffer | null>,
    private readonly artifacts: ArtifactStore,
    private readonly log: BotLog,
    private readonly intervalSeconds: number,
  ) {}

  start(): void {
    if (this.timer || this.intervalSeconds <= 0) return;
    this.timer = setInterval(() => {
      if (!this.taking) void this.take();
    }, this.intervalSeconds * 1000);
  }

  /** Takes one now (after the one being taken, if any); nothing when screenshots are off (interval 0). */
  take(): Promise<void> {
    if (this.intervalSeconds <= 0) return this.busy;
    this.taking = true;
    this.busy = this.busy.then(async () => {
      try {
        const png = await this.shoot();
        if (!png) return;
        this.count++;
        await this.artifacts.store('screenshot', `screenshots/${this.count}.png`, 'image/png', png);
      } catch (err) {
        if (this.failures++ < 3) this.log.warn(`screenshot failed: ${(err as Error).message}`);
      } finally {
        this.taking = false;
      }
    });
    return this.busy;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.busy;
  }
}
