import Router from '@koa/router';
import { orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { decodeLegacyConnectRequest, decodeRawCalendarsRequest } from '../codecs/calendar-requests';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import {
  calendarsOfTeam, connectCalendar, findCalendarOfCaller, listRawCalendars, removeCalendar, resyncCalendar, type CalendarApiDeps,
} from '../calendars/calendar-operations';
import { toLegacyCalendar } from '../calendars/calendar-responses';

/**
 * The legacy calendar API (root paths, no envelope): the spec's `POST /calendars/raw` and `POST /calendar`
 * (create_calendar; also at Meeting BaaS's `POST /calendars`), and `GET /calendars`, `GET` and `DELETE
 * /calendars/{uuid}`, `POST /calendars/{uuid}/resync` (docs/decisions.md).
 */
export const legacyCalendarsRouter = (deps: CalendarApiDeps): Router<AppState> => {
  const router = new Router<AppState>();
  const uuidParam = (ctx: AppContext & { params: Record<string, string | undefined> }) => orThrow(parseUuidParam('uuid', ctx.params.uuid));

  router.post('/calendars/raw', async (ctx) => {
    callerOf(ctx);
    const request = orThrow(decodeRawCalendarsRequest(await readJsonBody(ctx, { required: true })));
    const calendars = await listRawCalendars(deps, request);
    ctx.body = { calendars: calendars.map(({ email, id, is_primary }) => ({ email, id, is_primary })) };
  });

  const create = async (ctx: AppContext) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeLegacyConnectRequest(await readJsonBody(ctx, { required: true })));
    const view = await connectCalendar(deps, caller, ctx.get('x-service-api-key'), request, 'legacy');
    ctx.body = { calendar: toLegacyCalendar(view) };
  };
  router.post('/calendar', create);
  router.post('/calendars', create);

  router.get('/calendars', async (ctx) => {
    ctx.body = (await calendarsOfTeam(deps.readStore, callerOf(ctx).team_id)).map(toLegacyCalendar);
  });

  router.get('/calendars/:uuid', async (ctx) => {
    ctx.body = toLegacyCalendar(await findCalendarOfCaller(deps.readStore, callerOf(ctx), uuidParam(ctx)));
  });

  router.delete('/calendars/:uuid', async (ctx) => {
    await removeCalendar(deps, callerOf(ctx), uuidParam(ctx));
    ctx.body = { ok: true };
  });

  router.post('/calendars/:uuid/resync', async (ctx) => {
    const { view, finished } = await resyncCalendar(deps, callerOf(ctx), uuidParam(ctx));
    ctx.status = finished ? 200 : 202;
    ctx.body = { calendar: toLegacyCalendar(view) };
  });

  return router;
};
