/**
 * Per-team token buckets for non-GET requests: a team may burst up to its per-second rate, then is
 * refilled continuously. In memory: a restart forgets partial buckets, which only ever errs towards
 * letting requests through.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();

  constructor(private readonly nowMs: () => number = () => Date.now()) {}

  /** Takes one request from the team's bucket; when empty, says how many whole seconds to wait. */
  take(teamId: string, ratePerSecond: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.nowMs();
    const bucket = this.buckets.get(teamId) ?? { tokens: ratePerSecond, updatedMs: now };
    const refilled = Math.min(ratePerSecond, bucket.tokens + ((now - bucket.updatedMs) / 1000) * ratePerSecond);
    if (refilled >= 1) {
      this.buckets.set(teamId, { tokens: refilled - 1, updatedMs: now });
      return { allowed: true };
    }
    this.buckets.set(teamId, { tokens: refilled, updatedMs: now });
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - refilled) / ratePerSecond)) };
  }
}
