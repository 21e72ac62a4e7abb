import Router from '@koa/router';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { CALENDAR_EVENTS, type CalendarEventView } from '../../projections/calendars/calendar-event-view';
import { notFound, orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeCalendarEventsQuery } from '../codecs/calendar-requests';
import { parseUuidParam } from '../codecs/path-uuid';
import { listCalendarEvents } from '../calendars/calendar-events-query';
import { findCalendarOfCaller } from '../calendars/calendar-operations';
import { toLegacyEvent } from '../calendars/calendar-responses';

export interface CalendarEventsRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
}

const eventNotFound = () => notFound('FST_ERR_CALENDAR_EVENT_NOT_FOUND', 'Calendar event not found');

/** The spec's `GET /calendar_events/` (every query parameter, batches of 100, cursor `next`) and `GET /calendar_events/{uuid}`. */
export const legacyCalendarEventsRouter = (deps: CalendarEventsRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/calendar_events' });

  router.get('/', async (ctx) => {
    const caller = callerOf(ctx);
    const query = orThrow(decodeCalendarEventsQuery(ctx.query));
    await findCalendarOfCaller(deps.readStore, caller, query.calendar_id);
    const { events, next } = await listCalendarEvents(deps.readStore, query, deps.commands.clock().getTime());
    ctx.body = { data: events.map((e) => toLegacyEvent(e, false)), next };
  });

  router.get('/:uuid', async (ctx) => {
    const caller = callerOf(ctx);
    const eventId = orThrow(parseUuidParam('uuid', ctx.params.uuid));
    const event = (await deps.readStore.get<CalendarEventView>(CALENDAR_EVENTS, eventId))?.doc;
    if (!event || event.team_id !== caller.team_id) throw eventNotFound();
    // An event of a removed calendar is gone with it.
    await findCalendarOfCaller(deps.readStore, caller, event.calendar_id).catch(() => {
      throw eventNotFound();
    });
    ctx.body = toLegacyEvent(event, true);
  });

  return router;
};
