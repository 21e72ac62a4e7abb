import * as t from 'io-ts';
import { described } from '../schema-notes';
import { anyObject, dateTime, nullable, uuid } from './response-kit';

const keys = <K extends string>(values: readonly K[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>);

const CalendarStatus = keys(['syncing', 'synced', 'error'] as const);
const LastError = nullable(t.type({ reason: keys(['credentials_revoked', 'access_denied', 'calendar_not_found', 'provider_unavailable'] as const), message: t.string, at: dateTime }));

export const RawCalendars = t.type({ calendars: t.readonlyArray(t.type({ email: t.string, id: t.string, is_primary: t.boolean })) });

export const LegacyCalendar = t.type({
  uuid,
  name: t.string,
  email: t.string,
  provider_id: t.string,
  resource_id: nullable(t.string),
  platform: keys(['Google', 'Microsoft'] as const),
  status: CalendarStatus,
  last_synced_at: nullable(dateTime),
  last_error: LastError,
});
export type LegacyCalendar = t.TypeOf<typeof LegacyCalendar>;

export const LegacyCalendarAnswer = t.type({ calendar: LegacyCalendar });

export const V2Calendar = t.type({
  calendar_id: uuid,
  platform: keys(['google', 'microsoft'] as const),
  provider_calendar_id: t.string,
  name: t.string,
  email: t.string,
  status: CalendarStatus,
  last_synced_at: nullable(dateTime),
  last_sync_type: nullable(keys(['initial', 'incremental', 'full'] as const)),
  last_error: LastError,
  push: t.type({ active: t.boolean, expires_at: nullable(dateTime), unavailable_reason: nullable(t.string) }),
  created_at: dateTime,
});
export type V2Calendar = t.TypeOf<typeof V2Calendar>;

export const V2CalendarList = t.type({ calendars: t.readonlyArray(V2Calendar) });

export const V2CalendarDeleted = t.type({ calendar_id: uuid, deleted: t.literal(true) });

/** What a bot for the event was given; each write-only field shows `********` once set. */
const BotParam = nullable(anyObject);

/** The legacy views add `extra` and `transcription_custom_parameters` (`{}`) and `webhook_url` (`""`) when not given. */
const LegacyBotParam = described(nullable(anyObject), {
  anyOf: [
    {
      type: 'object',
      required: ['extra', 'transcription_custom_parameters', 'webhook_url'],
      properties: { extra: { type: 'object' }, transcription_custom_parameters: { type: 'object' }, webhook_url: { type: 'string' } },
      additionalProperties: true,
      description: 'The fields given (POST /calendar_events/{uuid}/bot), each write-only one as `********`; `extra` and `transcription_custom_parameters` `{}` and `webhook_url` `""` when not given.',
    },
    { type: 'null' },
  ],
});

const LegacyEventFields = {
  uuid,
  calendar_uuid: uuid,
  name: t.string,
  meeting_url: nullable(t.string),
  start_time: dateTime,
  end_time: dateTime,
  last_updated_at: dateTime,
  attendees: t.readonlyArray(t.type({ email: t.string, name: nullable(t.string) })),
  organizer_email: nullable(t.string),
  bot_param: LegacyBotParam,
  deleted: t.boolean,
  is_organizer: t.boolean,
  is_recurring: t.boolean,
  recurring_event_id: nullable(t.string),
  provider_id: t.string,
  /** the provider's whole record, in lists too */
  raw: anyObject,
};

export const LegacyEvent = t.type(LegacyEventFields);
export type LegacyEvent = t.TypeOf<typeof LegacyEvent>;

export const LegacyEventList = t.type({ data: t.readonlyArray(LegacyEvent), next: nullable(t.string) });

export const LegacyEventsChanged = t.readonlyArray(LegacyEvent);

export const V2CalendarEvent = t.type({
  event_id: uuid,
  calendar_id: uuid,
  name: t.string,
  meeting_url: nullable(t.string),
  start_time: dateTime,
  end_time: dateTime,
  series_id: nullable(t.string),
  deleted: t.boolean,
  bot_scheduled: t.boolean,
  bot_id: nullable(uuid),
  bot_config: BotParam,
});

/** POST /v2/calendars/{id}/bots, the official client's batch shape: `data` the events that got the bot, `errors` none (one decision for all). */
export const V2CalendarBotsScheduled = t.type({
  success: t.literal(true),
  data: t.readonlyArray(V2CalendarEvent),
  errors: described(t.readonlyArray(t.unknown), { type: 'array', maxItems: 0, items: {} }),
  calendar_id: uuid,
  all_occurrences: t.boolean,
});
