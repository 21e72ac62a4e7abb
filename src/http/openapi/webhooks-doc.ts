import * as P from '../codecs/responses/webhook-payloads';
import type { WebhookDoc, WebhookDocs, WebhookHeaderDoc } from './webhook-doc';

/** Standard Webhooks' headers, and the key the bot (or calendar) was defined with. */
const SIGNED: readonly WebhookHeaderDoc[] = [
  { name: 'webhook-id', required: true, description: 'The message id: the same on every retry of one event (de-duplicate on it).' },
  { name: 'webhook-timestamp', required: true, description: 'Seconds since the epoch when this attempt was signed.' },
  { name: 'webhook-signature', required: true, description: "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the endpoint's secret (Standard Webhooks)." },
  { name: 'x-service-api-key', required: true, description: 'The key that defined the bot as it now is (or the calendar, or the retry).' },
];

const CALLBACK_HEADERS: readonly WebhookHeaderDoc[] = [
  ...SIGNED.map((h) => (h.name === 'webhook-signature' ? { ...h, description: "As above, keyed by the callback secret's UTF-8 bytes; absent without a secret." , required: false } : h)),
  { name: 'x-callback-secret', required: false, description: 'The callback_config.secret the bot was given.' },
];

const BOT_ID = '8f7c2a1e-5d3b-4c2a-9e1f-0a1b2c3d4e5f';
const AT = '2030-01-07T08:31:12.000Z';

const v2 = (event: string, summary: string, description: string, schema: WebhookDoc['schema'], name: string, example?: unknown): WebhookDoc => ({
  operationId: `webhook_${event.replace(/[^a-z_]/g, '_')}`,
  tag: 'Webhooks (v2)',
  summary,
  description: `${description}\n\nSent to the team's enabled endpoints subscribed to \`${event}\` (bots created through v2, calendars connected through v2).`,
  name,
  schema,
  headers: SIGNED,
  ...(example === undefined ? {} : { example }),
});

const legacy = (event: string, summary: string, description: string, schema: WebhookDoc['schema'], name: string): WebhookDoc => ({
  operationId: `legacy_webhook_${event.replace(/[^a-z_]/g, '_')}`,
  tag: 'Webhooks (legacy)',
  summary,
  description: `${description}\n\nSent for bots created through POST /bots, to their \`webhook_url\` (else to the team's endpoints).`,
  name,
  schema,
  headers: SIGNED,
});

/** An account event (a login, a workspace, a pool): sent to the team's endpoints whichever API made the bot. */
const account = (event: string, summary: string, description: string, schema: WebhookDoc['schema'], name: string, example: unknown): WebhookDoc => ({
  operationId: `webhook_${event.replace(/[^a-z_]/g, '_')}`,
  tag: 'Webhooks (v2)',
  summary,
  description: `${description}\n\nSent to the team's enabled endpoints subscribed to \`${event}\`; \`x-service-api-key\` is the key that created the login, workspace or bot.`,
  name,
  schema,
  headers: SIGNED,
  example,
});

const FAILURE = { code: 'TM_LOGIN_FAILED_WRONG_PASSWORD', reason: 'wrong_password', bot_id: BOT_ID };

/** Every webhook the service sends: a new message kind gets its entry here (and a codec in webhook-payloads.ts). */
export const webhookDocs: WebhookDocs = {
  'bot.status_change': v2('bot.status_change', 'A bot changed status', 'Every status a bot goes through (`start_time` when it starts recording).', P.BotStatusChange, 'BotStatusChangeWebhook', {
    event: 'bot.status_change',
    data: { bot_id: BOT_ID, extra: null, status: { code: 'in_call_recording', created_at: AT, start_time: AT } },
  }),
  'bot.completed': v2(
    'bot.completed',
    'A bot ended and its results are ready',
    'Links its artifacts (recording, chat, participants, log, transcripts), signed for 2 hours from this attempt. A bot that transcribes sends it once its transcription ended (`transcription` says how).',
    P.BotCompleted,
    'BotCompletedWebhook',
  ),
  'bot.failed': v2('bot.failed', 'A bot failed (or, scheduled, was cancelled)', '`error_code` says why.', P.BotFailed, 'BotFailedWebhook'),
  'bot.transcription_completed': v2('bot.transcription_completed', 'A re-transcription ended', 'Links the new transcript.', P.BotTranscriptionCompleted, 'BotTranscriptionCompletedWebhook'),
  'bot.transcription_failed': v2('bot.transcription_failed', 'A re-transcription failed', '`transcription.error_message` says why.', P.BotTranscriptionFailed, 'BotTranscriptionFailedWebhook'),
  'calendar.events_synced': v2('calendar.events_synced', 'A calendar sync changed events', 'How many events a sync round changed (every first round).', P.CalendarEventsSynced, 'CalendarEventsSyncedWebhook'),
  'calendar.event_created': v2('calendar.event_created', 'New events in a calendar', 'Per series (or lone event), its new instances.', P.CalendarEventCreated, 'CalendarEventCreatedWebhook'),
  'calendar.event_updated': v2('calendar.event_updated', 'Events changed in a calendar', 'Per series (or lone event), its changed instances.', P.CalendarEventUpdated, 'CalendarEventUpdatedWebhook'),
  'calendar.event_cancelled': v2('calendar.event_cancelled', 'Events cancelled in a calendar', 'Per series (or lone event), its cancelled instances.', P.CalendarEventCancelled, 'CalendarEventCancelledWebhook'),
  'calendar.error': v2('calendar.error', 'A calendar stopped syncing', 'The provider refused for good: connect the calendar again with new credentials.', P.CalendarError, 'CalendarErrorWebhook'),
  'login.invalid': account(
    'login.invalid',
    'A tm or mt login turned invalid',
    'The platform refused the account (wrong password, locked, MFA asked for, unknown; or two sign-in timeouts in a row): pools skip it until a ' +
      'PATCH re-enables it (a new tm password does too). `failure_data.code` is the sign-in error code.',
    P.LoginInvalid,
    'LoginInvalidWebhook',
    {
      event: 'login.invalid',
      data: {
        platform: 'tm', credential_id: '5c0e8d2b-7f4a-4e61-b2d3-9a8b7c6d5e4f', workspace_id: '0b6f3c1a-9d2e-4f5a-8b7c-6d5e4f3a2b1c', email: 'notes@acme.example',
        name: 'Notes 1', email_group: 'notes@acme.example', state: 'invalid', last_error_at: AT, last_error_message: 'The password was refused', failure_data: FAILURE,
      },
    },
  ),
  'workspace.invalid': account(
    'workspace.invalid',
    'An mt workspace turned invalid',
    "Google rejected our SAML assertion (the SSO profile's certificate or settings): every login of the workspace is skipped until a PATCH re-enables it.",
    P.WorkspaceInvalid,
    'WorkspaceInvalidWebhook',
    {
      event: 'workspace.invalid',
      data: {
        platform: 'mt', workspace_id: '0b6f3c1a-9d2e-4f5a-8b7c-6d5e4f3a2b1c', domain: 'acme.example', name: 'Google Workspace', state: 'invalid', last_error_at: AT,
        last_error_message: 'Google rejected the sign-in', failure_data: { code: 'MT_LOGIN_FAILED_SAML_REJECTED', reason: 'saml_rejected', bot_id: BOT_ID },
      },
    },
  ),
  'login.saturated': account(
    'login.saturated',
    'A bot found no login with room',
    'Every matching login was full, or none was active: with `fallback: fail` the bot then fails (`TM_LOGIN_UNAVAILABLE`, `MT_LOGIN_UNAVAILABLE`), ' +
      'with `anonymous` it joins as a guest. Sent before the bot\'s own `bot.failed`. Add logins to the pool, or reduce concurrency.',
    P.LoginSaturated,
    'LoginSaturatedWebhook',
    {
      event: 'login.saturated',
      data: { platform: 'tm', bot_id: BOT_ID, credential_id: null, email_group: 'notes@acme.example', fallback: 'fail', logins: 2, logins_active: 2, at: AT },
    },
  ),
  'vc_credential.invalid': {
    operationId: 'webhook_vc_credential_invalid',
    tag: 'Webhooks (v2)',
    summary: 'A stored vc OAuth connection was refused by the platform',
    description:
      'The platform refused to refresh its tokens for good: the vc user must authorise your app again (`POST /v2/vc-credentials` or ' +
      '`POST /vc_oauth_connections` with a new code), or the bots that name it fail with `VC_OBF_TOKEN_ERROR`.\n\nSent to the team\'s ' +
      'enabled endpoints subscribed to `vc_credential.invalid`, whichever API made the connection; `x-service-api-key` is the key that made it.',
    name: 'VcCredentialInvalidWebhook',
    schema: P.VcCredentialInvalid,
    headers: SIGNED,
    example: {
      event: 'vc_credential.invalid',
      data: { credential_id: '5c0e8d2b-7f4a-4e61-b2d3-9a8b7c6d5e4f', type: 'oauth', vc_user_id: 'KdYKjnimT4KPd8KKdQt9FQ', state: 'invalid', reason: 'invalid_grant: the refresh token was revoked', invalidated_at: AT },
    },
  },
  callback: {
    operationId: 'bot_callback',
    tag: 'Webhooks (v2)',
    summary: "A bot's own callback",
    description: "A bot created with `callback_enabled` and `callback_config` sends its final event (`bot.completed` or `bot.failed`, the same bodies) to `callback_config.url` with its method (POST or PUT).",
    name: 'BotCallbackWebhook',
    schema: P.BotCallback,
    headers: CALLBACK_HEADERS,
  },
  'legacy.bot.status_change': legacy('bot.status_change', 'A bot changed status (legacy)', 'The live statuses, `call_ended`, and why a bot ended (`meeting_error` with `error_message` and `error_type`).', P.LegacyBotStatusChange, 'LegacyBotStatusChangeWebhook'),
  'legacy.complete': legacy('complete', 'A bot ended (legacy)', '`mp4` is signed for 2 hours from this attempt; `transcript` when the bot transcribed.', P.LegacyComplete, 'LegacyCompleteWebhook'),
  'legacy.failed': legacy('failed', 'A bot failed (legacy)', '`error` is the legacy error string.', P.LegacyFailed, 'LegacyFailedWebhook'),
  'legacy.transcription_complete': legacy('transcription_complete', 'A re-transcription ended (legacy)', 'Read the transcript with GET /bots/meeting_data.', P.LegacyTranscriptionComplete, 'LegacyTranscriptionCompleteWebhook'),
  'legacy.transcription_failed': legacy('transcription_failed', 'A re-transcription failed (legacy)', '`error` says why.', P.LegacyTranscriptionFailed, 'LegacyTranscriptionFailedWebhook'),
};
