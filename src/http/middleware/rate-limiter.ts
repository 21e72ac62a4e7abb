import type { SharedState } from '../../adapters/shared-state/port';

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes one request from the team's allowance; when it is used up, says how many whole seconds to wait. */
  take(teamId: string, ratePerSecond: number): Promise<RateVerdict>;
}

/** Windows that started more than this many seconds ago are dropped from the shared store, once a minute. */
const KEEP_SECONDS = 600;
const DROP_EVERY_SECONDS = 60;

/**
 * Per-team limits in fixed windows of one second (longer for a rate below one a second), counted in the
 * shared store: every api instance counts into the same window, so the limit holds however the load
 * balancer spreads a team's requests. A window allows the rate, then refuses until the next one starts.
 * The windows follow the instances' clocks; NTP keeps those within milliseconds of each other.
 */
export class WindowRateLimiter implements RateLimiter {
  private lastDropWindow = 0;

  constructor(
    private readonly shared: SharedState,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  async take(teamId: string, ratePerSecond: number): Promise<RateVerdict> {
    const windowSeconds = ratePerSecond >= 1 ? 1 : Math.ceil(1 / ratePerSecond);
    const allowance = Math.max(1, Math.floor(ratePerSecond * windowSeconds));
    const nowMs = this.nowMs();
    const nowSeconds = Math.floor(nowMs / 1000);
    // A window is named by the second it starts at.
    const window = nowSeconds - (nowSeconds % windowSeconds);
    const count = await this.shared.countUp(`rate:${teamId}:${windowSeconds}`, window);
    this.dropOldWindows(nowSeconds);
    if (count <= allowance) return { allowed: true };
    const nextWindowMs = (window + windowSeconds) * 1000;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((nextWindowMs - nowMs) / 1000)) };
  }

  private dropOldWindows(nowSeconds: number): void {
    if (nowSeconds - this.lastDropWindow < DROP_EVERY_SECONDS) return;
    this.lastDropWindow = nowSeconds;
    void this.shared.dropWindowsBefore(nowSeconds - KEEP_SECONDS).catch(() => undefined);
  }
}
