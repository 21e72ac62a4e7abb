import type Router from '@koa/router';
import * as E from 'fp-ts/Either';
import { loadBot } from '../../commands/bot-commands';
import { cancelScheduledBot, changeSchedule } from '../../commands/schedule-bot';
import { BOTS, type BotView } from '../../projections/bot-view';
import { notFound, orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { parseBotIdParam } from '../codecs/path-uuid';
import { decodeListQuery } from '../codecs/list-query';
import { decodeScheduledBotPatch } from '../codecs/scheduled-bot-request';
import { keepStoredSecrets } from '../codecs/v2-request-of-bot-config';
import { readJsonBody } from '../read-json-body';
import { batchRoute, oneBotRoute } from './bot-creation-routes';
import { findBotOfCaller } from './bot-access';
import { toScheduledBot } from './bot-details';
import type { BotsRouterDeps } from './bots-router';
import { checkCallbackTarget, checkRequestTargets, definitionOf, requesterOf, scheduleBotFromBody } from './bots-from-requests';
import { keysetPage } from './newest-first-page';
import { refusalToApiError } from './refusal-to-api-error';

const ok = (data: unknown) => ({ success: true, data });

/** A bot of the caller's team that was scheduled (it stays one after its time: it then shows its status). */
const findScheduledBotOfCaller = async (deps: BotsRouterDeps, ctx: AppContext): Promise<BotView> => {
  const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
  if (!bot.join_at) throw notFound('FST_ERR_BOT_NOT_FOUND', 'Scheduled bot not found', 'This bot was created to join at once, not scheduled');
  return bot;
};

/** A concurrent PATCH can win the race between reading the bot and writing the change: merge again. */
const PATCH_ATTEMPTS = 3;

/**
 * /v2/bots/scheduled: mounted on the /v2/bots router before its `/:bot_id` routes, so that `scheduled` is
 * never read as a bot id.
 */
export const addScheduledBotRoutes = (router: Router<AppState>, deps: BotsRouterDeps): void => {
  const visible = (position: bigint | null) => deps.projections.waitForPosition(position);

  router.post('/scheduled', oneBotRoute(deps, (requester, body) => scheduleBotFromBody(deps, requester, body)));
  router.post('/scheduled/batch', batchRoute(deps, (requester, item) => scheduleBotFromBody(deps, requester, item)));

  router.get('/scheduled', async (ctx) => {
    const where = { team_id: callerOf(ctx).team_id, status: 'scheduled' };
    const query = orThrow(decodeListQuery(ctx.query));
    const page = await keysetPage<BotView>(deps.readStore, BOTS, where, { field: 'join_at', direction: 'asc' }, query);
    ctx.body = ok({ bots: page.items.map(toScheduledBot), next_cursor: page.next_cursor });
  });

  router.get('/scheduled/:bot_id', async (ctx) => {
    ctx.body = ok(toScheduledBot(await findScheduledBotOfCaller(deps, ctx)));
  });

  router.patch('/scheduled/:bot_id', async (ctx) => {
    const { bot_id } = await findScheduledBotOfCaller(deps, ctx);
    const body = await readJsonBody(ctx);
    for (let attempt = 1; ; attempt++) {
      const bot = await loadBot(deps.commands, bot_id);
      if (bot.kind !== 'present' || bot.schedule === null) {
        throw refusalToApiError({ code: 'BOT_STATUS', message: `A scheduled bot can be changed only before it starts (status: ${bot.kind === 'present' ? bot.status : 'unknown'})` });
      }
      const { definition, join_at, version } = bot.schedule;
      const patch = orThrow(decodeScheduledBotPatch(body, { definition, join_at }, { sandboxHosts: deps.sandboxHosts, now: deps.commands.clock().toISOString() }));
      if (patch.named.has('callback_config') || patch.named.has('callback_enabled')) await checkCallbackTarget(deps, patch.request);
      if (patch.named.has('vc_config')) await checkRequestTargets(deps, callerOf(ctx).team_id, patch.request);
      const { config, ...changed } = definitionOf(deps, patch.request);
      const changedResult = await changeSchedule(deps.commands, bot_id, version, {
        ...changed,
        config: keepStoredSecrets(config, definition.config, patch.named),
        join_at: patch.join_at,
        created_by: requesterOf(deps.secretBox, callerOf(ctx), ctx.get('x-service-api-key')).createdBy,
      });
      if (E.isLeft(changedResult) && changedResult.left.code === 'SCHEDULE_CHANGED' && attempt < PATCH_ATTEMPTS) continue;
      if (E.isLeft(changedResult)) throw refusalToApiError(changedResult.left);
      await visible(changedResult.right.position);
      // the scheduled bot as it now is, and the official client's `message`
      ctx.body = ok({ ...toScheduledBot(await findScheduledBotOfCaller(deps, ctx)), message: 'The scheduled bot was updated' });
      return;
    }
  });

  router.delete('/scheduled/:bot_id', async (ctx) => {
    const { bot_id } = await findScheduledBotOfCaller(deps, ctx);
    const cancelled = await cancelScheduledBot(deps.commands, bot_id);
    if (E.isLeft(cancelled)) throw refusalToApiError(cancelled.left);
    await visible(cancelled.right.position);
    ctx.body = ok({ bot_id, message: 'The scheduled bot was cancelled' });
  });
};
