import * as t from 'io-ts';
import { LegacyEndReason } from './legacy-bot-responses';
import { BotStatus } from './v2-bot-responses';
import { anyObject, dateTime, integer, nullable, uri, uuid } from './response-kit';
import { count, FailureData } from './signed-in-login-responses';
import { LoginPlatform } from '../../../domain/signed-in-logins/login-platform';

/**
 * The bodies of the webhooks the service sends (domain/webhooks: bot-webhook-messages.ts,
 * legacy-bot-messages.ts, calendar-webhook-messages.ts), as the OpenAPI document's `webhooks` describe them.
 * Every body is `{event, data}`.
 */
const message = <E extends string, D extends t.Mixed>(event: E, data: D) => t.type({ event: t.literal(event), data });

const Transcription = nullable(t.type({ provider: t.string, status: t.keyof({ running: null, completed: null, failed: null }), error_code: nullable(t.string), error_message: nullable(t.string) }));

/** Links are signed when each attempt is sent, valid 2 hours; null when one cannot be made. */
const LinkedArtifact = t.type({ artifact_type: t.string, url: nullable(uri), url_expires_at: nullable(dateTime), size_bytes: integer({ minimum: 0 }) });

const base = { bot_id: uuid, extra: nullable(anyObject) };

export const BotStatusChange = message(
  'bot.status_change',
  t.type({ ...base, status: t.intersection([t.type({ code: BotStatus, created_at: dateTime }), t.partial({ start_time: dateTime })]) }),
);

export const BotCompleted = message(
  'bot.completed',
  t.intersection([
    t.type({
      ...base,
      status: t.type({ code: t.literal('completed'), created_at: dateTime }),
      error_code: t.string,
      duration_seconds: t.number,
      joined_at: nullable(dateTime),
      exited_at: dateTime,
      participants: t.readonlyArray(t.string),
      speakers: t.readonlyArray(t.string),
      artifacts: t.readonlyArray(LinkedArtifact),
    }),
    t.partial({ transcription: Transcription }),
  ]),
);

export const BotFailed = message(
  'bot.failed',
  t.type({ ...base, status: t.type({ code: t.keyof({ failed: null, cancelled: null }), created_at: dateTime }), error_code: t.string, error_message: nullable(t.string) }),
);

export const BotTranscriptionCompleted = message('bot.transcription_completed', t.type({ ...base, transcription: Transcription, artifacts: t.readonlyArray(LinkedArtifact) }));
export const BotTranscriptionFailed = message('bot.transcription_failed', t.type({ ...base, transcription: Transcription, artifacts: t.readonlyArray(LinkedArtifact) }));

/** The final event a bot's own callback receives. */
export const BotCallback = t.union([BotCompleted, BotFailed]);

const seriesFields = {
  calendar_id: uuid,
  event_type: t.keyof({ one_off: null, recurring: null }),
  series_id: nullable(t.string),
  series_bot_scheduled: t.boolean,
};
const Instance = t.type({ event_id: uuid, title: t.string, start_time: dateTime, end_time: dateTime, meeting_url: nullable(t.string), bot_scheduled: t.boolean });

export const CalendarEventsSynced = message('calendar.events_synced', t.type({ calendar_id: uuid, events_synced: integer({ minimum: 0 }), sync_type: t.keyof({ initial: null, incremental: null, full: null }) }));
export const CalendarEventCreated = message('calendar.event_created', t.type({ ...seriesFields, instances: t.readonlyArray(Instance) }));
export const CalendarEventUpdated = message('calendar.event_updated', t.type({ ...seriesFields, affected_instances: t.readonlyArray(Instance) }));
export const CalendarEventCancelled = message('calendar.event_cancelled', t.type({ ...seriesFields, cancelled_instances: t.readonlyArray(t.type({ event_id: uuid, title: t.string, start_time: dateTime })) }));
export const CalendarError = message(
  'calendar.error',
  t.type({
    calendar_id: uuid,
    platform: t.keyof({ google: null, microsoft: null }),
    error: t.keyof({ credentials_revoked: null, access_denied: null, calendar_not_found: null }),
    message: t.string,
    status: t.literal('error'),
  }),
);

/** A stored vc OAuth connection the platform refused for good (domain/webhooks/vc-credential-webhook-messages.ts). */
export const VcCredentialInvalid = message(
  'vc_credential.invalid',
  t.type({ credential_id: uuid, type: t.literal('oauth'), vc_user_id: nullable(t.string), state: t.literal('invalid'), reason: t.string, invalidated_at: dateTime }),
);

/** A login the platform refused (domain/webhooks/login-webhook-messages.ts): pools skip it until it is re-enabled. */
export const LoginInvalid = message(
  'login.invalid',
  t.type({
    platform: LoginPlatform,
    credential_id: uuid,
    workspace_id: uuid,
    email: t.string,
    name: t.string,
    email_group: nullable(t.string),
    state: t.literal('invalid'),
    last_error_at: dateTime,
    last_error_message: t.string,
    failure_data: FailureData,
  }),
);

/** A workspace whose SAML assertion the platform rejected: every login of it is skipped until it is re-enabled. */
export const WorkspaceInvalid = message(
  'workspace.invalid',
  t.type({
    platform: LoginPlatform,
    workspace_id: uuid,
    domain: t.string,
    name: t.string,
    state: t.literal('invalid'),
    last_error_at: dateTime,
    last_error_message: t.string,
    failure_data: FailureData,
  }),
);

/** A bot found no login with room (or none active), and what it did instead (`fallback`). */
export const LoginSaturated = message(
  'login.saturated',
  t.type({
    platform: LoginPlatform,
    bot_id: uuid,
    credential_id: nullable(uuid),
    email_group: nullable(t.string),
    fallback: t.keyof({ fail: null, anonymous: null }),
    logins: count,
    logins_active: count,
    at: dateTime,
  }),
);

const LegacyStatus = t.intersection([
  t.type({ code: t.string, created_at: dateTime }),
  t.partial({ start_time: dateTime, error_message: t.string, error_type: t.string }),
]);

export const LegacyBotStatusChange = message('bot.status_change', t.type({ bot_id: uuid, status: LegacyStatus }));

const LegacyTranscriptSegment = t.type({
  speaker: t.string,
  start_time: t.number,
  end_time: t.number,
  words: t.readonlyArray(t.type({ start: t.number, end: t.number, word: t.string })),
});

export const LegacyComplete = message(
  'complete',
  t.intersection([
    t.type({
      bot_id: uuid,
      mp4: nullable(uri),
      speakers: t.readonlyArray(t.string),
      end_reason: LegacyEndReason,
    }),
    t.partial({ transcript: nullable(t.readonlyArray(LegacyTranscriptSegment)) }),
  ]),
);
export const LegacyFailed = message('failed', t.type({ bot_id: uuid, error: t.string }));
export const LegacyTranscriptionComplete = message('transcription_complete', t.type({ bot_id: uuid }));
export const LegacyTranscriptionFailed = message('transcription_failed', t.type({ bot_id: uuid, error: t.string }));
