import { toMillis } from '../codec-helpers';

/**
 * How long before its `join_at` a scheduled bot is handed to a slot, so that it is in the meeting at
 * `join_at`: the time from `queued` to in the call, measured by `npm run bench:bots` (docs/performance.md:
 * about 1.6 s on a quiet machine, about 5 s on this two-core machine under other suites' load), rounded up
 * to the loaded figure. Early is harmless (the bot waits in the meeting); late is what a customer notices.
 */
export const SCHEDULED_BOT_LEAD_MS = 5_000;

/** A bot whose time passed while the service was down still starts when it is less late than this. */
export const MAX_START_DELAY_MS = 5 * 60 * 1000;

/** The error code of a scheduled bot that could not start within MAX_START_DELAY_MS of its time. */
export const SCHEDULED_TIME_MISSED = 'SCHEDULED_TIME_MISSED';

/** How far ahead a bot may be scheduled: one calendar year (same date and time next year, UTC). */
const latestJoinAt = (nowMs: number): number => {
  const latest = new Date(nowMs);
  latest.setUTCFullYear(latest.getUTCFullYear() + 1);
  return latest.getTime();
};

/** Why `join_at` cannot be a scheduled bot's time at `now`, or null when it can. */
export const joinAtProblem = (joinAt: string, now: string): string | null => {
  const joinAtMs = toMillis(joinAt);
  const nowMs = toMillis(now);
  if (joinAtMs <= nowMs) return `must be in the future (now is ${new Date(nowMs).toISOString()})`;
  if (joinAtMs > latestJoinAt(nowMs)) return `must be at most one year ahead (at most ${new Date(latestJoinAt(nowMs)).toISOString()})`;
  return null;
};

/** When the scheduler hands the bot to a slot. */
export const queueingTimeOf = (joinAt: string): number => toMillis(joinAt) - SCHEDULED_BOT_LEAD_MS;

export type StartVerdict =
  | { readonly kind: 'wait'; readonly untilMs: number }
  | { readonly kind: 'start' }
  | { readonly kind: 'missed'; readonly lateMs: number };

/**
 * What to do with a scheduled bot at `now`: wait for its queueing time, start it, or give up on it.
 * `aheadMs` lets it start that much before its queueing time (a scheduler starting a burst of bots early
 * enough for the last of them to be queued in time).
 */
export const startVerdict = (joinAt: string, now: string, aheadMs = 0): StartVerdict => {
  const nowMs = toMillis(now);
  const untilMs = queueingTimeOf(joinAt) - aheadMs;
  if (nowMs < untilMs) return { kind: 'wait', untilMs };
  const lateMs = nowMs - toMillis(joinAt);
  return lateMs >= MAX_START_DELAY_MS ? { kind: 'missed', lateMs } : { kind: 'start' };
};

/** The message of a SCHEDULED_TIME_MISSED end: how late, and why the bot did not join anyway. */
export const missedTimeMessage = (joinAt: string, lateMs: number): string =>
  `The bot was scheduled to join at ${joinAt}, but the service could only start it ${Math.floor(lateMs / 60_000)} min ` +
  `${Math.floor((lateMs % 60_000) / 1000)} s later (it was not running at that time); a scheduled bot more than ` +
  `${MAX_START_DELAY_MS / 60_000} minutes late does not join.`;
