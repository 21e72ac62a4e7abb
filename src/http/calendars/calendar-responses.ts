import type { CalendarBotParam } from '../../domain/calendar/calendar-events';
import { shownBotParam } from '../codecs/calendar-bot-param';
import type { CalendarEventView } from '../../projections/calendars/calendar-event-view';
import type { CalendarView } from '../../projections/calendars/calendar-view';
import type { LegacyCalendar, V2Calendar } from '../codecs/responses/calendar-responses';

const providerName = (platform: CalendarView['platform']): 'Google' | 'Microsoft' => (platform === 'google' ? 'Google' : 'Microsoft');

/** The live push channel, if any (the newest). */
const channelOf = (view: CalendarView) => [...view.push_channels].sort((a, b) => (a.expires_at < b.expires_at ? 1 : -1))[0] ?? null;

/**
 * A calendar in the legacy shape (Meeting BaaS's `Calendar`, with the spec's `provider_id` for the
 * provider's calendar id), plus where it stands: platform, status, last sync and last error.
 */
export const toLegacyCalendar = (view: CalendarView): LegacyCalendar => ({
  uuid: view.id,
  name: view.name,
  email: view.email,
  provider_id: view.provider_calendar_id,
  resource_id: channelOf(view)?.provider_channel_id ?? null,
  platform: providerName(view.platform),
  status: view.status,
  last_synced_at: view.last_synced_at,
  last_error: view.last_error,
});

export const toV2Calendar = (view: CalendarView): V2Calendar => {
  const channel = channelOf(view);
  return {
    calendar_id: view.id,
    platform: view.platform,
    provider_calendar_id: view.provider_calendar_id,
    name: view.name,
    email: view.email,
    status: view.status,
    last_synced_at: view.last_synced_at,
    last_sync_type: view.last_sync_type,
    last_error: view.last_error,
    push: { active: channel !== null, expires_at: channel?.expires_at ?? null, unavailable_reason: channel === null ? view.push_unavailable : null },
    created_at: view.created_at,
  };
};

/**
 * `bot_param` as the legacy views show it: the given fields, and those the official client's type always
 * expects (`extra` and `transcription_custom_parameters` objects, `webhook_url` a string) empty when not given.
 */
const legacyBotParamOf = (param: CalendarBotParam): Record<string, unknown> => {
  const shown = shownBotParam(param);
  return { ...shown, extra: shown.extra ?? {}, transcription_custom_parameters: shown.transcription_custom_parameters ?? {}, webhook_url: shown.webhook_url ?? '' };
};

/**
 * An event in the spec's legacy shape, `raw` (the provider's whole record) included, in lists too: it is
 * a field of the spec's calendar event, and the official client expects it everywhere. `bot_param` is null
 * until a bot is scheduled for the event.
 */
export const toLegacyEvent = (view: CalendarEventView, botParam: CalendarBotParam | null) => ({
  uuid: view.id,
  calendar_uuid: view.calendar_id,
  name: view.name,
  meeting_url: view.meeting_url,
  start_time: view.start_time,
  end_time: view.end_time,
  last_updated_at: view.last_updated_at,
  attendees: view.attendees,
  organizer_email: view.organizer_email,
  bot_param: botParam === null ? null : legacyBotParamOf(botParam),
  deleted: view.deleted,
  is_organizer: view.is_organizer,
  is_recurring: view.is_recurring,
  recurring_event_id: view.series_id,
  provider_id: view.provider_event_id,
  raw: view.raw,
});

/** An event in v2 terms, as POST /v2/calendars/{id}/bots answers it. */
export const toV2CalendarEvent = (view: CalendarEventView, botParam: CalendarBotParam | null) => ({
  event_id: view.id,
  calendar_id: view.calendar_id,
  name: view.name,
  meeting_url: view.meeting_url,
  start_time: view.start_time,
  end_time: view.end_time,
  series_id: view.series_id,
  deleted: view.deleted,
  bot_scheduled: botParam !== null,
  bot_id: view.bot_id,
  bot_config: botParam === null ? null : shownBotParam(botParam),
});
