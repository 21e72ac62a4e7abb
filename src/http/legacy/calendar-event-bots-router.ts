import Router from '@koa/router';
import { orThrow, validationError } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { decodeLegacyBotParam, sealBotParam } from '../codecs/calendar-bot-param';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { attachBot, changeBot, detachBot, findEventOfCaller, type TouchedEvents } from '../calendars/calendar-bot-operations';
import type { CalendarApiDeps } from '../calendars/calendar-operations';
import { toLegacyEvent } from '../calendars/calendar-responses';

/** `all_occurrences`: `true` or `false` (default), given at most once. */
const allOccurrencesOf = (query: AppContext['query']): boolean => {
  const value = query.all_occurrences;
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw validationError('querystring/all_occurrences', 'must be boolean (true or false)');
};

const eventsAnswer = ({ events, botParamOf }: TouchedEvents) => events.map((e) => toLegacyEvent(e, botParamOf(e)));

/**
 * The spec's `POST`, `PATCH` and `DELETE /calendar_events/{uuid}/bot` (Change of 12 December 2024:
 * `all_occurrences`, answered with the array of events changed).
 */
export const legacyCalendarEventBotsRouter = (deps: CalendarApiDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/calendar_events/:uuid/bot' });
  const target = async (ctx: AppContext & { params: Record<string, string | undefined> }) => {
    const caller = callerOf(ctx);
    const event = await findEventOfCaller(deps, caller, orThrow(parseUuidParam('uuid', ctx.params.uuid)));
    return { caller, event, allOccurrences: allOccurrencesOf(ctx.query), apiKey: ctx.get('x-service-api-key') };
  };
  const seal = (plain: string) => deps.secretBox.seal(plain);

  router.post('/', async (ctx) => {
    const { caller, event, allOccurrences, apiKey } = await target(ctx);
    const fields = orThrow(decodeLegacyBotParam(await readJsonBody(ctx, { required: true }), false));
    ctx.body = eventsAnswer(await attachBot(deps, caller, apiKey, event, allOccurrences, sealBotParam('legacy', fields, seal)));
  });

  router.patch('/', async (ctx) => {
    const { caller, event, allOccurrences, apiKey } = await target(ctx);
    const fields = orThrow(decodeLegacyBotParam(await readJsonBody(ctx), true));
    ctx.body = eventsAnswer(await changeBot(deps, caller, apiKey, event, allOccurrences, sealBotParam('legacy', fields, seal)));
  });

  router.delete('/', async (ctx) => {
    const { caller, event, allOccurrences, apiKey } = await target(ctx);
    ctx.body = eventsAnswer(await detachBot(deps, caller, apiKey, event, allOccurrences));
  });

  return router;
};

