/**
 * When a failed delivery is tried again (DESIGN.md). Account endpoints: immediately, then after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h (about 27 h in all). Callbacks, which a team points at its own service
 * for one bot: after 1 s, 5 s, 15 s and 1 min. Each wait is spread by ±20 % so that many failed deliveries
 * do not come back at the same instant.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export type DeliveryTargetKind = 'endpoint' | 'callback' | 'bot_webhook' | 'calendar';

const accountWebhookWaits = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

const waitsAfterFailure: Record<DeliveryTargetKind, readonly number[]> = {
  endpoint: accountWebhookWaits,
  callback: [1 * SECOND, 5 * SECOND, 15 * SECOND, 1 * MINUTE],
  // A legacy bot's own webhook_url stands in for the team's endpoints: it is retried as they are.
  bot_webhook: accountWebhookWaits,
  // So is the webhook_url a calendar was connected with.
  calendar: accountWebhookWaits,
};

export const JITTER = 0.2;

/** Attempts a message gets in all: the first, then one after each wait. */
export const maxAttempts = (kind: DeliveryTargetKind): number => waitsAfterFailure[kind].length + 1;

/**
 * Milliseconds to wait after the `attempt`-th attempt (1-based) failed, or null when it was the last.
 * `jitter` is a number in [0, 1) from outside (the domain draws no random numbers).
 */
export const waitAfterFailedAttempt = (kind: DeliveryTargetKind, attempt: number, jitter: number): number | null => {
  const wait = waitsAfterFailure[kind][attempt - 1];
  if (wait === undefined) return null;
  return Math.round(wait * (1 - JITTER + 2 * JITTER * Math.min(Math.max(jitter, 0), 1)));
};
