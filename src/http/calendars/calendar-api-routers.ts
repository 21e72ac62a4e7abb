import type Router from '@koa/router';
import type { AppState } from '../app-context';
import { legacyCalendarEventBotsRouter } from '../legacy/calendar-event-bots-router';
import { legacyCalendarEventsRouter } from '../legacy/calendar-events-router';
import { legacyCalendarsRouter } from '../legacy/calendars-router';
import { v2CalendarsRouter } from '../v2/calendars-router';
import type { CalendarApiDeps } from './calendar-operations';

/** Every router of the calendar API, legacy and v2, so the app mounts them in one line. */
export const calendarApiRouters = (deps: CalendarApiDeps): Router<AppState>[] => [
  legacyCalendarsRouter(deps),
  legacyCalendarEventsRouter(deps),
  legacyCalendarEventBotsRouter(deps),
  v2CalendarsRouter(deps),
];
