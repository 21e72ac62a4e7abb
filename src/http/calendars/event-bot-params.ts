import type { ReadStore } from '../../adapters/read-store/port';
import { effectiveBotParam } from '../../domain/calendar/calendar-bot-params';
import type { CalendarBotParam } from '../../domain/calendar/calendar-events';
import { CALENDAR_BOT_PARAMS, type CalendarBotParamView } from '../../projections/calendars/calendar-bot-param-view';
import type { CalendarEventView } from '../../projections/calendars/calendar-event-view';

/** The bot parameters of a calendar's events, read once per request (a calendar has few). */
export const botParamsOfCalendar = async (readStore: ReadStore, calendarId: string): Promise<(event: CalendarEventView) => CalendarBotParam | null> => {
  const docs = await readStore.find<CalendarBotParamView>(CALENDAR_BOT_PARAMS, { where: { calendar_id: calendarId, cleared: false } });
  const series = new Map(docs.filter((d) => d.kind === 'series' && d.param !== null).map((d) => [d.key, d.param!]));
  const events = new Map(docs.filter((d) => d.kind === 'event').map((d) => [d.key, { series_id: d.series_id, param: d.param }]));
  return (event) => effectiveBotParam({ series, events }, event.id, event.series_id);
};
