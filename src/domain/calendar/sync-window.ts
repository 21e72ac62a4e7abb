import { toMillis } from '../codec-helpers';
import type { SyncWindow } from './calendar-events';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The stretch of time a full sync reads: from a day ago (a meeting that started yesterday evening may
 * still run) to 90 days ahead. Providers fix it in their sync state (Graph's delta link carries it,
 * Google's sync token follows the first request), so it is read again in full when less than 60 days of
 * it are left: once a month.
 */
export const SYNC_WINDOW_PAST_MS = DAY_MS;
export const SYNC_WINDOW_AHEAD_MS = 90 * DAY_MS;
export const SYNC_WINDOW_ROLL_MS = 60 * DAY_MS;

export const syncWindowAt = (nowMs: number): SyncWindow => ({
  start: new Date(nowMs - SYNC_WINDOW_PAST_MS).toISOString(),
  end: new Date(nowMs + SYNC_WINDOW_AHEAD_MS).toISOString(),
});

export const windowNeedsRoll = (window: SyncWindow | null, nowMs: number): boolean =>
  window === null || toMillis(window.end) - nowMs < SYNC_WINDOW_ROLL_MS;
