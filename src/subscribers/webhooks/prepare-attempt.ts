import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { EventStore } from '../../adapters/event-store/port';
import type { ArtifactLinks } from '../../adapters/artifact-links/port';
import type { ReadStore } from '../../adapters/read-store/port';
import type { WebhookRequest } from '../../adapters/webhook-http/port';
import { callbackSigningKey, endpointSigningKey, signatureHeader } from '../../adapters/webhook-signing/standard-webhooks';
import { loadBotFacts } from '../../commands/bot-commands';
import { loadCalendar } from '../../commands/calendar-commands';
import { loadWebhookEndpoint } from '../../commands/webhook-commands';
import type { BotFacts } from '../../domain/bot/bot-facts';
import { keyOfDelivery } from '../../domain/webhooks/delivery-key';
import type { QueuedMessage } from '../../domain/webhooks/webhook-delivery-decider';
import type { AbandonReason, DeliveryTarget } from '../../domain/webhooks/webhook-delivery-events';
import { signingSecrets } from '../../domain/webhooks/webhook-endpoint-decider';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointView } from '../../projections/webhooks/webhook-endpoint-view';
import { calendarOfSubject } from './calendar-subject';
import { creatorOfLoginSubject } from './login-subject';
import { loadVcCredential } from '../../commands/vc-credentials/vc-credential-store';
import { vcCredentialOfSubject } from '../../domain/webhooks/vc-credential-webhook-messages';
import { artifactKeysIn, botOfSubject, renderPayload, transcriptKeysIn } from './render-payload';
import { diarizedTranscriptIn, legacyCompleteTranscript } from '../../domain/transcription/legacy-transcripts';

export interface PrepareDeps {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly secretBox: SecretBox;
  readonly links: ArtifactLinks;
}

/** What to send for the head message of a stream, or why it can no longer be sent to its target. */
export type Prepared =
  | { readonly kind: 'send'; readonly request: WebhookRequest; readonly endpoint: WebhookEndpointView | null }
  | { readonly kind: 'abandon'; readonly reason: AbandonReason };

/** Who created the bot and its configuration as it stands (a scheduled bot's may have been changed before its time). */
const botFacts = async (eventStore: EventStore, botId: string | null): Promise<BotFacts | null> =>
  botId === null ? null : loadBotFacts({ eventStore }, botId);

/** A vc credential's messages carry the key that stored it (while it exists). */
const createdByOfVcCredential = async (deps: PrepareDeps, subject: string) => {
  const credentialId = vcCredentialOfSubject(subject);
  return credentialId === null ? null : ((await loadVcCredential({ eventStore: deps.eventStore }, credentialId)).current?.created_by ?? null);
};

/**
 * Builds one attempt: the body with fresh links, the `x-service-api-key` of the key that defined it (keyOfDelivery),
 * and the Standard Webhooks headers signed with the endpoint's secret(s) at `nowMs`, or with the callback's
 * own secret (also sent as `x-callback-secret`); a legacy bot's own webhook_url gets no signature.
 */
export const prepareAttempt = async (
  deps: PrepareDeps,
  target: DeliveryTarget,
  subject: string,
  message: QueuedMessage,
  nowMs: number,
): Promise<Prepared> => {
  const botId = botOfSubject(subject);
  const created = await botFacts(deps.eventStore, botId);
  // A calendar's messages: the calendar as it is now (connected by which key, with which webhook URL).
  const calendarId = calendarOfSubject(subject);
  const calendar = calendarId === null ? null : await loadCalendar(deps, calendarId);
  const keys = artifactKeysIn(message.payload);
  const links = botId === null || keys.length === 0 ? new Map() : await deps.links.linksFor(botId, keys);
  const transcripts = new Map<string, unknown>();
  for (const key of transcriptKeysIn(message.payload)) {
    const diarized = botId === null ? null : diarizedTranscriptIn(await deps.links.contentOf(botId, key));
    transcripts.set(key, diarized && legacyCompleteTranscript(diarized));
  }
  const body = JSON.stringify(renderPayload(message.payload, links, transcripts));
  const timestamp = Math.floor(nowMs / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'meeting-bot-service-webhooks',
    'webhook-id': message.message_id,
    'webhook-timestamp': String(timestamp),
  };
  const override = target.kind === 'callback' ? message.callback : null;
  // A vc credential's, a login's or a workspace's messages carry the key that stored it.
  const subjectKey = botId === null && calendarId === null
    ? ((await createdByOfVcCredential(deps, subject)) ?? (await creatorOfLoginSubject(deps, subject)))
    : null;
  const key = keyOfDelivery({ override, bot: created, calendar: calendar?.kind === 'present' ? calendar : null }) ?? subjectKey;
  if (key) headers['x-service-api-key'] = deps.secretBox.open(key.api_key);

  if (target.kind === 'endpoint') {
    const view = (await deps.readStore.get<WebhookEndpointView>(WEBHOOK_ENDPOINTS, target.endpoint_id))?.doc ?? null;
    const endpoint = await loadWebhookEndpoint(deps, target.endpoint_id);
    if (endpoint.kind === 'absent' || endpoint.deleted) return { kind: 'abandon', reason: 'endpoint_deleted' };
    if (!endpoint.enabled) return { kind: 'abandon', reason: 'endpoint_disabled' };
    const keys = signingSecrets(endpoint, nowMs).map((secret) => endpointSigningKey(deps.secretBox.open(secret)));
    headers['webhook-signature'] = signatureHeader(message.message_id, timestamp, body, keys);
    return { kind: 'send', endpoint: view, request: { url: endpoint.url, method: 'POST', headers, body } };
  }

  if (target.kind === 'bot_webhook') {
    // A legacy bot's own URL has no secret to sign with: it is told who sends by x-service-api-key (the spec's header).
    const url = created?.config.webhook_url ?? null;
    if (url === null) return { kind: 'abandon', reason: 'no_webhook_url' };
    return { kind: 'send', endpoint: null, request: { url, method: 'POST', headers, body } };
  }

  if (target.kind === 'calendar') {
    // Like a legacy bot's webhook_url: no secret to sign with; the API key header says who it is from.
    if (calendar?.kind !== 'present' || calendar.removed || calendar.webhook_url === null) return { kind: 'abandon', reason: 'calendar_removed' };
    return { kind: 'send', endpoint: null, request: { url: calendar.webhook_url, method: 'POST', headers, body } };
  }

  const callback = message.callback ?? created?.config.callback ?? null;
  if (callback === null) return { kind: 'abandon', reason: 'no_callback' };
  if (callback.secret !== null) {
    const secret = deps.secretBox.open(callback.secret);
    headers['x-callback-secret'] = secret;
    headers['webhook-signature'] = signatureHeader(message.message_id, timestamp, body, [callbackSigningKey(secret)]);
  }
  return { kind: 'send', endpoint: null, request: { url: callback.url, method: callback.method, headers, body } };
};
