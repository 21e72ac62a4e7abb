/**
 * What the service's webhooks carry, typed from the document's `webhooks`, and their verification
 * (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256, 5 minutes of
 * tolerance), over the raw body as received:
 *
 *   const event = verifyWebhook(process.env.WEBHOOK_SECRET!, rawBody, req.headers); // throws if forged
 *   if (event.event === 'bot.completed') console.log(event.data.artifacts);
 */
import { Webhook } from 'standardwebhooks';
import type { components } from './api-types';

type S = components['schemas'];

/** What an endpoint of the team receives for v2 bots and calendars, for its logins and workspaces, and for its stored vc credentials. */
export type V2WebhookEvent =
  | S['BotStatusChangeWebhook']
  | S['BotCompletedWebhook']
  | S['BotFailedWebhook']
  | S['BotTranscriptionCompletedWebhook']
  | S['BotTranscriptionFailedWebhook']
  | S['CalendarEventsSyncedWebhook']
  | S['CalendarEventCreatedWebhook']
  | S['CalendarEventUpdatedWebhook']
  | S['CalendarEventCancelledWebhook']
  | S['CalendarErrorWebhook']
  | S['LoginInvalidWebhook']
  | S['WorkspaceInvalidWebhook']
  | S['LoginSaturatedWebhook']
  | S['VcCredentialInvalidWebhook'];

/** What a legacy bot's webhook_url receives. */
export type LegacyWebhookEvent =
  | S['LegacyBotStatusChangeWebhook']
  | S['LegacyCompleteWebhook']
  | S['LegacyFailedWebhook']
  | S['LegacyTranscriptionCompleteWebhook']
  | S['LegacyTranscriptionFailedWebhook'];

/** What a bot's own callback receives. */
export type CallbackEvent = S['BotCallbackWebhook'];

export type WebhookEvent = V2WebhookEvent | LegacyWebhookEvent;

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

const plainHeaders = (headers: Headers): Record<string, string> => {
  if (typeof (headers as globalThis.Headers).forEach === 'function' && typeof (headers as globalThis.Headers).get === 'function') {
    const out: Record<string, string> = {};
    (headers as globalThis.Headers).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  return Object.fromEntries(
    Object.entries(headers as Record<string, string | string[] | undefined>).flatMap(([k, v]) => (v === undefined ? [] : [[k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]])),
  );
};

/**
 * A webhook to one of the team's endpoints, verified with its `whsec_…` secret: its event, or an error
 * (`WebhookVerificationError`) when it is forged, altered or older than 5 minutes. `body` is the raw body.
 */
export const verifyWebhook = (secret: string, body: string | Buffer, headers: Headers): WebhookEvent =>
  new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;

/** A bot's callback, verified with the `callback_config.secret` the bot was given (keyed by its UTF-8 bytes). */
export const verifyCallback = (secret: string, body: string | Buffer, headers: Headers): CallbackEvent =>
  new Webhook(new TextEncoder().encode(secret), { format: 'raw' }).verify(body, plainHeaders(headers)) as CallbackEvent;

export { WebhookVerificationError } from 'standardwebhooks';
