import * as t from 'io-ts';
import { webhookEventTypes } from '../../../domain/webhooks/webhook-event-types';
import { dateTime, integer, nullable, text, uri, uuid } from './response-kit';

const EventType = t.keyof(Object.fromEntries(webhookEventTypes.map((v) => [v, null])) as Record<(typeof webhookEventTypes)[number], null>);

export const WebhookEndpoint = t.type({
  webhook_id: uuid,
  url: uri,
  /** null: every kind, present and future */
  events: nullable(t.readonlyArray(EventType)),
  description: nullable(t.string),
  enabled: t.boolean,
  disabled_reason: nullable(t.literal('failing_for_5_days')),
  created_at: dateTime,
  updated_at: dateTime,
  last_success_at: nullable(dateTime),
  failing_since: nullable(dateTime),
});
export type WebhookEndpoint = t.TypeOf<typeof WebhookEndpoint>;

/** Standard Webhooks' secret form: shown only when made (creation, rotation). */
const Secret = text({ pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$', description: 'The signing secret (Standard Webhooks), shown only now: keep it.' });

export const WebhookEndpointCreated = t.intersection([WebhookEndpoint, t.type({ secret: Secret })]);

export const WebhookEndpointList = t.type({ webhooks: t.readonlyArray(WebhookEndpoint) });

export const WebhookEndpointDeleted = t.type({ webhook_id: uuid, deleted: t.literal(true) });

export const WebhookSecretRotated = t.type({ webhook_id: uuid, secret: Secret });

export const WebhookDelivery = t.type({
  message_id: t.string,
  event_type: t.string,
  bot_id: nullable(uuid),
  attempt: integer({ minimum: 1 }),
  attempted_at: dateTime,
  url: uri,
  status_code: nullable(integer()),
  error: nullable(t.string),
  duration_ms: t.number,
  succeeded: t.boolean,
  next_attempt_at: nullable(dateTime),
});
export type WebhookDelivery = t.TypeOf<typeof WebhookDelivery>;

export const WebhookDeliveryList = t.type({ deliveries: t.readonlyArray(WebhookDelivery), next_cursor: nullable(t.string) });
