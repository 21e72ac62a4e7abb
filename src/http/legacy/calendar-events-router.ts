import Router from '@koa/router';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeCalendarEventsQuery } from '../codecs/calendar-requests';
import { parseUuidParam } from '../codecs/path-uuid';
import { listCalendarEvents } from '../calendars/calendar-events-query';
import { findEventOfCaller } from '../calendars/calendar-bot-operations';
import { findCalendarOfCaller } from '../calendars/calendar-operations';
import { toLegacyEvent } from '../calendars/calendar-responses';
import { botParamsOfCalendar } from '../calendars/event-bot-params';

export interface CalendarEventsRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
}

/** The spec's `GET /calendar_events/` (every query parameter, batches of 100, cursor `next`) and `GET /calendar_events/{uuid}`. */
export const legacyCalendarEventsRouter = (deps: CalendarEventsRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/calendar_events' });

  router.get('/', async (ctx) => {
    const caller = callerOf(ctx);
    const query = orThrow(decodeCalendarEventsQuery(ctx.query));
    await findCalendarOfCaller(deps.readStore, caller, query.calendar_id);
    const { events, next } = await listCalendarEvents(deps.readStore, query, deps.commands.clock().getTime());
    const botParamOf = await botParamsOfCalendar(deps.readStore, query.calendar_id);
    ctx.body = { data: events.map((e) => toLegacyEvent(e, botParamOf(e))), next };
  });

  router.get('/:uuid', async (ctx) => {
    const event = await findEventOfCaller(deps, callerOf(ctx), orThrow(parseUuidParam('uuid', ctx.params.uuid)));
    ctx.body = toLegacyEvent(event, (await botParamsOfCalendar(deps.readStore, event.calendar_id))(event));
  });

  return router;
};
