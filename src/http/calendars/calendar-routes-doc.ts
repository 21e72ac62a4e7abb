import { EventsQueryCodec, LegacyConnectCodec, RawCalendarsCodec, V2ConnectCodec } from '../codecs/calendar-requests';
import { LegacyPatchCodec, LegacyPostCodec } from '../codecs/calendar-bot-param';
import {
  LegacyCalendar, LegacyCalendarAnswer, LegacyEvent, LegacyEventList, LegacyEventsChanged, RawCalendars, V2Calendar, V2CalendarBotsScheduled,
  V2CalendarDeleted, V2CalendarList,
} from '../codecs/responses/calendar-responses';
import { LegacyOk } from '../codecs/responses/legacy-bot-responses';
import * as t from 'io-ts';
import { jsonBody, legacyAnswer, v2Answer, v2WholeAnswer, type ParameterDoc, type RouteDocs } from '../openapi/operation-doc';
import { v2CalendarBotRequestSchema } from '../v2/bot-request-schemas';
import { CREATION_ERRORS } from '../v2/bots-router-doc';

const CREDENTIALS = { oauth_client_id: '….apps.googleusercontent.com', oauth_client_secret: '…', oauth_refresh_token: '1//0g…', platform: 'Google' };

/** A provider refusing the credentials or the access, or out of reach (calendar-operations.ts, provider-errors.ts). */
const PROVIDER_ERRORS = { 400: ['FST_ERR_CALENDAR_CREDENTIALS', 'FST_ERR_CALENDAR_ACCESS_DENIED'], 502: ['FST_ERR_CALENDAR_PROVIDER_UNAVAILABLE'] };
const CONNECT_ERRORS = { ...PROVIDER_ERRORS, 409: ['FST_ERR_TEAM_LIMIT_REACHED'] };
const calendarNotFound = { 404: ['FST_ERR_CALENDAR_NOT_FOUND'] };
const eventNotFound = { 404: ['FST_ERR_CALENDAR_EVENT_NOT_FOUND'] };

const allOccurrences: Record<string, ParameterDoc> = {
  all_occurrences: { required: false, description: "Every instance of the event's series, present and future.", schema: { type: 'boolean', default: false } },
};

const connectLegacy = (operationId: string, summary: string) => ({
  operationId,
  tag: 'Legacy calendars',
  summary,
  description:
    'The credentials are tried on the provider first (nothing is stored on a refusal); the first sync runs at once and the answer waits for it ' +
    "(bounded). `webhook_url` is required unless the team has an enabled webhook endpoint. `raw_calendar_id` absent: the account's primary calendar.",
  body: jsonBody('LegacyConnectCalendarRequest', LegacyConnectCodec, { google: { summary: 'A Google calendar', value: { ...CREDENTIALS, webhook_url: 'https://example.com/hooks' } } }),
  responses: { 200: legacyAnswer('The calendar, synced.', LegacyCalendarAnswer) },
  errors: CONNECT_ERRORS,
});

/** A bot for an event, as the legacy routes take it: the spec's `bot_param` fields. */
const LEGACY_BOT_PARAM = { bot_name: 'Notetaker', recording_mode: 'audio_only', webhook_url: 'https://example.com/hooks' };

/** The routes of the calendar API (calendar-api-routers.ts: legacy/calendars-router.ts, calendar-events-router.ts, calendar-event-bots-router.ts, v2/calendars-router.ts). */
export const calendarRouteDocs: RouteDocs = {
  'POST /calendars/raw': {
    operationId: 'legacyListRawCalendars',
    tag: 'Legacy calendars',
    summary: "The account's calendars, from the provider",
    description: 'Nothing is stored.',
    body: jsonBody('RawCalendarsRequest', RawCalendarsCodec, { google: { summary: 'A Google account', value: CREDENTIALS } }),
    responses: { 200: legacyAnswer('The calendars of the account.', RawCalendars) },
    errors: PROVIDER_ERRORS,
  },
  'POST /calendar': connectLegacy('legacyConnectCalendar', 'Connect a calendar (legacy)'),
  'POST /calendars': connectLegacy('legacyConnectCalendarAtCalendars', 'Connect a calendar (legacy, at Meeting BaaS\'s path)'),
  'GET /calendars': {
    operationId: 'legacyListCalendars',
    tag: 'Legacy calendars',
    summary: "The team's calendars (legacy)",
    responses: { 200: legacyAnswer('Every calendar, oldest first.', t.array(LegacyCalendar)) },
  },
  'GET /calendars/{uuid}': {
    operationId: 'legacyGetCalendar',
    tag: 'Legacy calendars',
    summary: 'A calendar (legacy)',
    responses: { 200: legacyAnswer('The calendar.', LegacyCalendar, 'LegacyCalendar') },
    errors: calendarNotFound,
  },
  'DELETE /calendars/{uuid}': {
    operationId: 'legacyRemoveCalendar',
    tag: 'Legacy calendars',
    summary: 'Disconnect a calendar (legacy)',
    description: 'Its bots waiting for their time are cancelled.',
    responses: { 200: legacyAnswer('Removed.', LegacyOk) },
    errors: calendarNotFound,
  },
  'POST /calendars/{uuid}/resync': {
    operationId: 'legacyResyncCalendar',
    tag: 'Legacy calendars',
    summary: 'Read a calendar again in full (legacy)',
    responses: {
      200: legacyAnswer('The round ended; the calendar shows it.', LegacyCalendarAnswer),
      202: legacyAnswer('The round goes on.', LegacyCalendarAnswer),
    },
    errors: calendarNotFound,
  },
  'GET /calendar_events': {
    operationId: 'legacyListCalendarEvents',
    tag: 'Legacy calendars',
    summary: "A calendar's events, by start time",
    description: "Pages of 100; an empty parameter is not given. Each event with the provider's record (`raw`).",
    query: EventsQueryCodec,
    emptyQueryValueIsAbsent: true,
    responses: { 200: legacyAnswer('A page of events; `next` is the cursor of the next one.', LegacyEventList, 'LegacyEventList') },
    errors: calendarNotFound,
  },
  'GET /calendar_events/{uuid}': {
    operationId: 'legacyGetCalendarEvent',
    tag: 'Legacy calendars',
    summary: 'An event, with the provider\'s record',
    responses: { 200: legacyAnswer('The event.', LegacyEvent, 'LegacyEvent') },
    errors: eventNotFound,
  },
  'POST /calendar_events/{uuid}/bot': {
    operationId: 'legacyScheduleEventBot',
    tag: 'Legacy calendars',
    summary: 'A bot for an event (or its whole series)',
    description: 'The parameters are checked as POST /bots would check them with the event\'s link; the bot follows the event (moved, cancelled).',
    query: allOccurrences,
    emptyQueryValueIsAbsent: true,
    body: jsonBody('LegacyEventBotRequest', LegacyPostCodec, { bot: { summary: 'An audio-only bot', value: LEGACY_BOT_PARAM } }),
    responses: { 200: legacyAnswer('The events changed.', LegacyEventsChanged, 'LegacyEventsChanged') },
    errors: { ...eventNotFound, 400: ['FST_ERR_OPTION_NOT_AVAILABLE'], 409: ['FST_ERR_CALENDAR_EVENT_CANCELLED'] },
  },
  'PATCH /calendar_events/{uuid}/bot': {
    operationId: 'legacyUpdateEventBot',
    tag: 'Legacy calendars',
    summary: "Change the bot of an event (or its series)",
    description: 'The fields given replace those of the bot the event has; the others stay, secrets included.',
    query: allOccurrences,
    emptyQueryValueIsAbsent: true,
    body: jsonBody('LegacyEventBotPatch', LegacyPatchCodec, { name: { summary: 'Another name', value: { bot_name: 'Recorder' } } }, false),
    responses: { 200: legacyAnswer('The events changed.', LegacyEventsChanged, 'LegacyEventsChanged') },
    errors: { 404: ['FST_ERR_CALENDAR_EVENT_NOT_FOUND', 'FST_ERR_CALENDAR_BOT_NOT_FOUND'], 400: ['FST_ERR_OPTION_NOT_AVAILABLE'], 409: ['FST_ERR_CALENDAR_EVENT_CANCELLED'] },
  },
  'DELETE /calendar_events/{uuid}/bot': {
    operationId: 'legacyRemoveEventBot',
    tag: 'Legacy calendars',
    summary: 'No bot for an event (or its series)',
    description: 'Idempotent; a scheduled bot is cancelled.',
    query: allOccurrences,
    emptyQueryValueIsAbsent: true,
    responses: { 200: legacyAnswer('The events changed.', LegacyEventsChanged, 'LegacyEventsChanged') },
    errors: eventNotFound,
  },
  'POST /v2/calendars': {
    operationId: 'connectCalendar',
    tag: 'Calendars',
    summary: 'Connect a calendar',
    description: "Its webhooks go to the team's endpoints. The first sync runs at once and the answer waits for it (bounded).",
    body: jsonBody('ConnectCalendarRequest', V2ConnectCodec, { google: { summary: 'A Google calendar', value: CREDENTIALS } }),
    responses: { 201: v2Answer('The calendar.', V2Calendar, 'Calendar') },
    errors: CONNECT_ERRORS,
  },
  'GET /v2/calendars': {
    operationId: 'listCalendars',
    tag: 'Calendars',
    summary: "The team's calendars",
    responses: { 200: v2Answer('Every calendar, oldest first.', V2CalendarList) },
  },
  'GET /v2/calendars/{calendar_id}': {
    operationId: 'getCalendar',
    tag: 'Calendars',
    summary: 'A calendar',
    responses: { 200: v2Answer('The calendar.', V2Calendar, 'Calendar') },
    errors: calendarNotFound,
  },
  'DELETE /v2/calendars/{calendar_id}': {
    operationId: 'removeCalendar',
    tag: 'Calendars',
    summary: 'Disconnect a calendar',
    responses: { 200: v2Answer('Removed.', V2CalendarDeleted) },
    errors: calendarNotFound,
  },
  'POST /v2/calendars/{calendar_id}/sync': {
    operationId: 'syncCalendar',
    tag: 'Calendars',
    summary: 'Read a calendar again in full',
    responses: { 200: v2Answer('The round ended.', V2Calendar, 'Calendar'), 202: v2Answer('The round goes on.', V2Calendar, 'Calendar') },
    errors: calendarNotFound,
  },
  'POST /v2/calendars/{calendar_id}/bots': {
    operationId: 'scheduleCalendarBots',
    tag: 'Calendars',
    summary: 'A bot for an event of the calendar (or its whole series)',
    description: 'The bot as POST /v2/bots takes it, without `meeting_url`: it joins the event\'s own link, and follows the event.',
    body: jsonBody('CalendarBotRequest', v2CalendarBotRequestSchema(), {
      series: { summary: 'Every instance of a series', value: { event_id: '3d1c9a7e-2b4f-4e6a-8c0d-1e2f3a4b5c6d', all_occurrences: true, bot_name: 'Notetaker' } },
    }),
    responses: { 201: v2WholeAnswer('The events that got the bot (`data`); `errors` is always empty: one decision for all of them.', V2CalendarBotsScheduled) },
    errors: { ...calendarNotFound, 400: CREATION_ERRORS[400], 409: ['FST_ERR_CALENDAR_EVENT_CANCELLED'] },
  },
};
