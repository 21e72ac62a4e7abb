import * as t from 'io-ts';
import { activeStatuses, terminalStatuses } from '../../../domain/bot/bot-status';
import { ARTIFACT_STATUSES } from '../../../projections/bot-view';
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

export const BotDetails = t.intersection([
  BotSummary,
  t.type({
    error_message: nullable(t.string),
    status_history: t.readonlyArray(t.type({ status: BotStatus, created_at: dateTime })),
    transcription: nullable(Transcription),
    data_deleted_at: nullable(dateTime),
    artifacts_deleted: t.boolean,
    artifacts: t.readonlyArray(Artifact),
  }),
]);
export type BotDetails = t.TypeOf<typeof BotDetails>;

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

export const ScheduledBotList = t.type({ bots: t.readonlyArray(ScheduledBot), next_cursor: nullable(t.string) });

export const BotCreated = t.type({ bot_id: uuid });

export const ScheduledBotCancelled = t.type({ bot_id: uuid, message: t.string });

const ErrorItem = t.intersection([
  t.type({ success: t.literal(false), error: t.string, code: t.string, message: t.string, statusCode: integer({ minimum: 400, maximum: 599 }) }),
  t.partial({ details: t.string, retryAfter: integer({ minimum: 1 }) }),
]);

/** One result per item, in request order: the body its single request would have answered. */
export const BatchResults = t.type({
  results: t.readonlyArray(t.union([t.type({ success: t.literal(true), statusCode: t.literal(201), data: BotCreated }), ErrorItem])),
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
