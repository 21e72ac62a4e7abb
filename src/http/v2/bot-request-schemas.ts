import { CreateBotRequestCodec } from '../codecs/create-bot-request';
import type { JsonSchema } from '../codecs/schema-notes';
import { jsonSchemaOf } from '../openapi/json-schema-of';
import { MAX_BATCH_ITEMS } from './batch';

/** `join_at` as POST /v2/bots/scheduled and its PATCH take it (decodeJoinAt, scheduled-bot-request.ts). */
export const JOIN_AT_SCHEMA: JsonSchema = {
  type: 'string',
  format: 'date-time',
  description: 'When the bot joins: an ISO 8601 date-time with its zone, in the future and at most one year ahead. Answered in UTC.',
  examples: ['2030-01-07T09:00:00+01:00'],
};

const createBot = (): { properties: Record<string, JsonSchema>; required: string[] } & JsonSchema =>
  jsonSchemaOf(CreateBotRequestCodec) as { properties: Record<string, JsonSchema>; required: string[] } & JsonSchema;

/**
 * A batch body: 1 to 100 items. Each item is decoded on its own, exactly as its single request (a bad item
 * fails alone, in its result), so the array takes any item and says which request each should be.
 */
export const batchOf = (item: string): JsonSchema => ({
  type: 'array',
  minItems: 1,
  maxItems: MAX_BATCH_ITEMS,
  description: `Each item a ${item} (#/components/schemas/${item}); an item that is not one fails alone, in its result.`,
  items: {},
});

/** POST /v2/bots/scheduled: the creation request plus `join_at` (decodeScheduledBotRequest). */
export const scheduledBotRequestSchema = (): JsonSchema => {
  const body = createBot();
  return { ...body, properties: { join_at: JOIN_AT_SCHEMA, ...body.properties }, required: ['join_at', ...body.required] };
};

/** PATCH /v2/bots/scheduled/{id}: any creation field (each replaces the stored one whole) and `join_at`, none required. */
export const scheduledBotPatchSchema = (): JsonSchema => {
  const { required: _required, ...body } = createBot();
  return { ...body, properties: { join_at: JOIN_AT_SCHEMA, ...body.properties } };
};

/**
 * POST /v2/calendars/{id}/bots: the event, whether its whole series, and the bot as POST /v2/bots takes it
 * without `meeting_url` (the event's own link; decodeV2CalendarBotRequest, calendar-bot-param.ts).
 */
export const v2CalendarBotRequestSchema = (): JsonSchema => {
  const body = createBot();
  const { meeting_url: _meetingUrl, ...properties } = body.properties;
  return {
    ...body,
    properties: {
      event_id: { type: 'string', format: 'uuid', description: 'An event of this calendar (GET /calendar_events lists them).' },
      all_occurrences: { type: 'boolean', default: false, description: 'Every instance of the event\'s series, present and future.' },
      series_id: { type: ['string', 'null'], description: 'Taken and not needed (the official client sends it): the event names its series.' },
      deduplication_key: { type: 'string', minLength: 1, description: 'One bot per key and team.' },
      ...properties,
    },
    required: ['event_id', ...body.required.filter((name) => name !== 'meeting_url')],
  };
};
