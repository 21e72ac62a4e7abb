import * as t from 'io-ts';
import { activeStatuses, terminalStatuses } from '../../../domain/bot/bot-status';
import { ARTIFACT_STATUSES } from '../../../projections/bot-view';
import { TRANSCRIPTION_STATUSES } from '../../v2/bot-status';
import { anyObject, anyValue, dateTime, integer, nullable, text, uri, uuid } from './response-kit';

const keys = <K extends string>(values: readonly K[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>);

export const BotStatus = keys(['scheduled', ...activeStatuses, ...terminalStatuses]);
const Platform = keys(['vc', 'tm', 'mt'] as const);

export const BotSummary = t.type({
  bot_id: uuid,
  status: BotStatus,
  meeting_url: t.string,
  bot_name: t.string,
  platform: Platform,
  extra: nullable(anyObject),
  error_code: nullable(t.string),
  created_at: dateTime,
  ended_at: nullable(dateTime),
  join_at: nullable(dateTime),
});
export type BotSummary = t.TypeOf<typeof BotSummary>;

const Artifact = t.type({
  artifact_type: t.string,
  key: t.string,
  content_type: t.string,
  size_bytes: integer({ minimum: 0 }),
  created_at: dateTime,
  status: keys(ARTIFACT_STATUSES),
  status_message: nullable(t.string),
  url: nullable(uri),
  url_expires_at: nullable(dateTime),
});

const Transcription = t.type({
  provider: t.string,
  status: keys(['running', 'completed', 'failed'] as const),
  error_code: nullable(t.string),
  error_message: nullable(t.string),
  requested_at: dateTime,
  ended_at: nullable(dateTime),
});

const StatusHistory = t.readonlyArray(t.type({ status: BotStatus, created_at: dateTime }));

export const BotDetails = t.intersection([
  BotSummary,
  t.type({
    error_message: nullable(t.string),
    status_history: StatusHistory,
    transcription: nullable(Transcription),
    data_deleted_at: nullable(dateTime),
    artifacts_deleted: t.boolean,
    artifacts: t.readonlyArray(Artifact),
  }),
]);
export type BotDetails = t.TypeOf<typeof BotDetails>;

/** GET /v2/bots/{id}/status (bot-status.ts): what a client polls, from the read model alone. */
export const BotStatusAnswer = t.type({
  bot_id: uuid,
  status: BotStatus,
  transcription_status: keys(TRANSCRIPTION_STATUSES),
  updated_at: dateTime,
  error_code: nullable(t.string),
  error_message: nullable(t.string),
  status_history: StatusHistory,
});

/** A screenshot the bot still has (bot-screenshots.ts): its place oldest first, from 1, and a link signed at the read. */
const Screenshot = t.type({ screenshot_id: integer({ minimum: 1 }), taken_at: dateTime, url: uri, url_expires_at: dateTime });

/** GET /v2/bots/{id}/screenshots: the official client's page, `cursor` to the next page and `prev_cursor` to the previous (null at the ends). */
export const ScreenshotsPage = t.type({ success: t.literal(true), data: t.readonlyArray(Screenshot), cursor: nullable(t.string), prev_cursor: nullable(t.string) });

/** DELETE /v2/bots/{id}/delete-data (bot-data-router.ts). */
export const DATA_DELETION_OUTCOMES = ['deleted', 'partiallyDeleted', 'alreadyDeleted'] as const;
export const DataDeletion = keys(DATA_DELETION_OUTCOMES);
export const BotDataDeleted = t.type({ message: t.string, bot_id: uuid, status: DataDeletion, data_deleted_at: nullable(dateTime), artifacts_deleted: t.boolean });

export const BotList = t.type({ bots: t.readonlyArray(BotSummary), next_cursor: nullable(t.string) });

export const ScheduledBot = t.type({
  bot_id: uuid,
  status: BotStatus,
  join_at: nullable(dateTime),
  meeting_url: t.string,
  bot_name: t.string,
  platform: Platform,
  extra: nullable(anyObject),
  error_code: nullable(t.string),
  error_message: nullable(t.string),
  created_at: dateTime,
  ended_at: nullable(dateTime),
});
export type ScheduledBot = t.TypeOf<typeof ScheduledBot>;

/** A scheduled bot's PATCH: the bot as it now is, and the official client's `message`. */
export const ScheduledBotUpdated = t.intersection([ScheduledBot, t.type({ message: t.string })]);

export const ScheduledBotList = t.type({ bots: t.readonlyArray(ScheduledBot), next_cursor: nullable(t.string) });

export const BotCreated = t.type({ bot_id: uuid });

export const ScheduledBotCancelled = t.type({ bot_id: uuid, message: t.string });

/** An item refused: the body its single request would have answered, its place in the request and its `extra`. */
const BatchRefused = t.intersection([
  t.type({
    success: t.literal(false),
    error: t.string,
    code: t.string,
    message: t.string,
    statusCode: integer({ minimum: 400, maximum: 599 }),
    details: nullable(t.string),
    index: integer({ minimum: 0 }),
    extra: nullable(anyObject),
  }),
  t.partial({ retryAfter: integer({ minimum: 1 }) }),
]);

/**
 * A batch's answer (batch.ts), the official client's: `data` the bots made and `errors` the items refused,
 * each by its `index` in the request; `succeeded` and `failed` count them.
 */
export const BatchResults = t.type({
  success: t.literal(true),
  data: t.readonlyArray(t.type({ index: integer({ minimum: 0 }), bot_id: uuid, extra: nullable(anyObject) })),
  errors: t.readonlyArray(BatchRefused),
  succeeded: integer({ minimum: 0 }),
  failed: integer({ minimum: 0 }),
});

export const BotAudit = t.type({
  bot_id: uuid,
  events: t.readonlyArray(t.type({ type: t.string, revision: integer({ minimum: 0 }), position: text({ pattern: '^[0-9]+$' }), recorded_at: dateTime, data: anyValue })),
});

export const TranscriptionRequested = t.type({ message: t.string, request_id: t.string });

export const WebhookResent = t.type({ message: t.string, message_id: t.string, endpoints: integer({ minimum: 0 }), queued: integer({ minimum: 0 }) });

export const CallbackRetried = t.type({ message: t.string, message_id: t.string, queued: t.boolean });
