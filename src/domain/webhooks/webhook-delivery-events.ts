import * as t from 'io-ts';
import { CreatedBy } from '../bot/bot-events';
import { eventCodec, IsoInstant, nullableField, Sealed } from '../codec-helpers';

/**
 * Where a message goes: one of the team's endpoints, one bot's own callback, a legacy bot's own
 * `webhook_url`, or the `webhook_url` a calendar was connected with. Deliveries to one target about one
 * subject (a bot, a calendar) share a stream: they go out in the order they were queued, and a target
 * that fails holds back only its own messages about that subject.
 */
export const DeliveryTarget = t.union([
  t.type({ kind: t.literal('endpoint'), endpoint_id: t.string }),
  t.type({ kind: t.literal('callback'), bot_id: t.string }),
  t.type({ kind: t.literal('calendar'), calendar_id: t.string }),
  t.type({ kind: t.literal('bot_webhook'), bot_id: t.string }),
]);
export type DeliveryTarget = t.TypeOf<typeof DeliveryTarget>;

/**
 * A callback's URL, method and secret for one message, other than the bot's own (retry-callback may name
 * them), and the key that asked: such a delivery carries that key, not the bot's (whoever names where a
 * message goes receives only their own key there). Absent in events recorded before: no key is sent.
 */
export const CallbackOverride = t.type({
  url: t.string,
  method: t.keyof({ POST: null, PUT: null }),
  secret: t.union([Sealed, t.null]),
  requested_by: nullableField(CreatedBy),
});
export type CallbackOverride = t.TypeOf<typeof CallbackOverride>;

/** Every delivery event names its target, subject and team, so that read models need no other event. */
const routing = { target: DeliveryTarget, subject: t.string, team_id: t.string, message_id: t.string };

/**
 * A message to deliver. `message_id` is the Standard Webhooks `webhook-id`, the same for every attempt and
 * every target of one event, so a receiver can drop what it has already seen. `payload` is the body to
 * send, except for artifact links, which are minted at each attempt (a late retry never carries a dead link).
 */
export const WebhookMessageQueued = eventCodec('WebhookMessageQueued', {
  ...routing,
  event_type: t.string,
  payload: t.UnknownRecord,
  callback: nullableField(CallbackOverride),
  at: IsoInstant,
});

/** One try: what the receiver answered (or the network error), how long it took, and when the next one is due. */
export const WebhookDeliveryAttempted = eventCodec('WebhookDeliveryAttempted', {
  ...routing,
  event_type: t.string,
  attempt: t.number,
  url: t.string,
  status_code: t.union([t.number, t.null]),
  error: t.union([t.string, t.null]),
  duration_ms: t.number,
  succeeded: t.boolean,
  next_attempt_at: t.union([IsoInstant, t.null]),
  at: IsoInstant,
});

export const WebhookDelivered = eventCodec('WebhookDelivered', { ...routing, attempts: t.number, at: IsoInstant });

export const AbandonReason = t.keyof({
  retries_exhausted: null, endpoint_disabled: null, endpoint_deleted: null, no_callback: null, no_webhook_url: null, calendar_removed: null,
});
export type AbandonReason = t.TypeOf<typeof AbandonReason>;

export const WebhookDeliveryAbandoned = eventCodec('WebhookDeliveryAbandoned', { ...routing, reason: AbandonReason, at: IsoInstant });

/**
 * A message delivered (or abandoned) before goes out again, with fresh links, on a team's request
 * (resend-webhook, retry-callback).
 */
export const WebhookMessageRequeued = eventCodec('WebhookMessageRequeued', {
  ...routing,
  request_id: t.string,
  callback: t.union([CallbackOverride, t.null]),
  at: IsoInstant,
});

/**
 * An attempt claimed before it is sent (claim, send, record): the owner of the delivery work says it is
 * sending attempt `attempt` of the message and will record its result before `claimed_until`. Appended
 * with the stream's expected revision, so one owner claims an attempt; a new owner sends the attempt of
 * an expired claim again, with the same `webhook-id`.
 */
export const WebhookAttemptStarted = eventCodec('WebhookAttemptStarted', {
  ...routing,
  attempt: t.number,
  owner: t.string,
  claimed_until: IsoInstant,
  at: IsoInstant,
});

export const WebhookDeliveryEvent = t.union([
  WebhookMessageQueued, WebhookDeliveryAttempted, WebhookDelivered, WebhookDeliveryAbandoned, WebhookMessageRequeued, WebhookAttemptStarted,
]);
export type WebhookDeliveryEvent = t.TypeOf<typeof WebhookDeliveryEvent>;

export const deliveryStreamName = (target: DeliveryTarget, subject: string): string => {
  switch (target.kind) {
    case 'endpoint':
      return `webhook-delivery-${target.endpoint_id}-${subject}`;
    case 'callback':
      return `callback-delivery-${target.bot_id}-${subject}`;
    case 'bot_webhook':
      return `bot-webhook-delivery-${target.bot_id}-${subject}`;
    case 'calendar':
      return `calendar-delivery-${target.calendar_id}-${subject}`;
  }
};

/** `endpoint:<id>`, `callback:<bot id>`, `bot_webhook:<bot id>` or `calendar:<id>`: deliveries to one target share its concurrency. */
export const targetKeyOf = (target: DeliveryTarget): string => {
  switch (target.kind) {
    case 'endpoint':
      return `endpoint:${target.endpoint_id}`;
    case 'calendar':
      return `calendar:${target.calendar_id}`;
    default:
      return `${target.kind}:${target.bot_id}`;
  }
};

const deliveryEventTypes: ReadonlySet<string> = new Set(WebhookDeliveryEvent.types.map((codec) => codec.props.type.value));

export const isWebhookDeliveryEvent = (event: { readonly type: string }): event is WebhookDeliveryEvent => deliveryEventTypes.has(event.type);
