import Router from '@koa/router';
import { orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { decodeV2ConnectRequest } from '../codecs/calendar-requests';
import { normaliseUuid, parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { calendarsOfTeam, connectCalendar, findCalendarOfCaller, removeCalendar, resyncCalendar, type CalendarApiDeps } from '../calendars/calendar-operations';
import { toV2Calendar, toV2CalendarEvent } from '../calendars/calendar-responses';
import { attachBot, findEventOfCaller } from '../calendars/calendar-bot-operations';
import { decodeV2CalendarBotRequest, sealBotParam } from '../codecs/calendar-bot-param';
import { validationError } from '../api-error';

const ok = (data: unknown) => ({ success: true, data });

/**
 * Calendars in v2 (Full Access): connect, list, read, remove and sync (docs/decisions.md). A v2 calendar's
 * webhooks go to the team's endpoints.
 */
export const v2CalendarsRouter = (deps: CalendarApiDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/calendars' });
  const idParam = (ctx: AppContext & { params: Record<string, string | undefined> }) => orThrow(parseUuidParam('calendar_id', ctx.params.calendar_id));

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeV2ConnectRequest(await readJsonBody(ctx, { required: true })));
    const view = await connectCalendar(deps, caller, ctx.get('x-service-api-key'), request, 'v2');
    ctx.status = 201;
    ctx.body = ok(toV2Calendar(view));
  });

  router.get('/', async (ctx) => {
    ctx.body = ok({ calendars: (await calendarsOfTeam(deps.readStore, callerOf(ctx).team_id)).map(toV2Calendar) });
  });

  router.get('/:calendar_id', async (ctx) => {
    ctx.body = ok(toV2Calendar(await findCalendarOfCaller(deps.readStore, callerOf(ctx), idParam(ctx))));
  });

  router.delete('/:calendar_id', async (ctx) => {
    const calendarId = idParam(ctx);
    await removeCalendar(deps, callerOf(ctx), calendarId);
    ctx.body = ok({ calendar_id: calendarId, deleted: true });
  });

  router.post('/:calendar_id/sync', async (ctx) => {
    const { view, finished } = await resyncCalendar(deps, callerOf(ctx), idParam(ctx));
    ctx.status = finished ? 200 : 202;
    ctx.body = ok(toV2Calendar(view));
  });

  /**
   * Schedules a bot for an event of the calendar (Sending Access too): `event_id`, `all_occurrences`
   * (default false), and the bot as POST /v2/bots takes it, without `meeting_url` (the event's own link).
   * `series_id` (the official client always sends one) is taken and not needed: the event names its series.
   */
  router.post('/:calendar_id/bots', async (ctx) => {
    const caller = callerOf(ctx);
    const calendarId = idParam(ctx);
    const request = orThrow(decodeV2CalendarBotRequest(await readJsonBody(ctx, { required: true })));
    const eventId = normaliseUuid(request.event_id);
    if (eventId === null) throw validationError('body/event_id', 'must match format "uuid"');
    const event = await findEventOfCaller(deps, caller, eventId).catch(() => {
      throw validationError('body/event_id', 'is not an event of this calendar');
    });
    if (event.calendar_id !== calendarId) throw validationError('body/event_id', 'is not an event of this calendar');
    const param = sealBotParam('v2', request.fields, (plain) => deps.secretBox.seal(plain));
    const { events, botParamOf } = await attachBot(deps, caller, ctx.get('x-service-api-key'), event, request.all_occurrences, param);
    // The official client's batch shape: `data` the events that got the bot, `errors` none (one decision for all).
    ctx.status = 201;
    ctx.body = { success: true, data: events.map((e) => toV2CalendarEvent(e, botParamOf(e))), errors: [], calendar_id: calendarId, all_occurrences: request.all_occurrences };
  });

  return router;
};
