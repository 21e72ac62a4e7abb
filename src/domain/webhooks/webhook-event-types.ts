/**
 * The kinds of webhook event a team's endpoint can subscribe to (DESIGN.md: v2 bot events; legacy bots
 * report `complete` and `failed` under their own names; calendars report what their syncs changed; signed-in
 * bots report logins and workspaces that turned invalid, and pools that had no room; a stored vc credential
 * the platform refused is reported). An endpoint subscribed to nothing in particular receives all of them.
 */
export const webhookEventTypes = [
  'bot.status_change', 'bot.completed', 'bot.failed', 'bot.transcription_completed', 'bot.transcription_failed',
  'calendar.events_synced', 'calendar.event_created', 'calendar.event_updated', 'calendar.event_cancelled', 'calendar.error',
  // signed-in bots (issue 20): what a team must act on
  'login.invalid', 'workspace.invalid', 'login.saturated',
  // vc credentials (issue 21)
  'vc_credential.invalid',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType => (webhookEventTypes as readonly string[]).includes(value);

/** Only the final events of a bot go to its own callback. */
export const callbackEventTypes: readonly string[] = ['bot.completed', 'bot.failed'];

/** A legacy bot's final events, under their legacy names, are the kinds an endpoint subscribes to. */
const subscriptionKindOf: Readonly<Record<string, string>> = {
  complete: 'bot.completed',
  failed: 'bot.failed',
  transcription_complete: 'bot.transcription_completed',
  transcription_failed: 'bot.transcription_failed',
};

/** Whether an endpoint that subscribed to `subscribed` (empty: everything) receives an event of `type`. */
export const endpointWants = (subscribed: readonly string[], type: string): boolean =>
  subscribed.length === 0 || subscribed.includes(subscriptionKindOf[type] ?? type);
