import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import { handleBotCommand } from '../../commands/bot-commands';
import { nowIso } from '../../commands/command-deps';
import { leaveBot } from '../../commands/leave-bot';
import { retranscribeBot, transcriptionOfBot } from '../../commands/retranscribe-bot';
import { LEGACY_BOTS, type LegacyBotView } from '../../projections/legacy-bot-view';
import { notFound, orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeBotsWithMetadataQuery } from '../codecs/bots-with-metadata-query';
import { botConfigFromLegacyRequest } from '../codecs/legacy-bot-config';
import { decodeLegacyCreateBotRequest, legacyJoinAt } from '../codecs/legacy-create-bot-request';
import { decodeMeetingDataQuery } from '../codecs/meeting-data-query';
import { parseBotIdParam } from '../codecs/path-uuid';
import { decodeLegacyRetranscribeRequest } from '../codecs/transcription-choice';
import { readJsonBody } from '../read-json-body';
import { findBotOfCaller } from '../v2/bot-access';
import type { BotsRouterDeps } from '../v2/bots-router';
import { createDefinedBot, requesterOf, scheduleDefinedBot } from '../v2/bots-from-requests';
import { refusalToApiError } from '../v2/refusal-to-api-error';
import { transcriptionOrderFor } from '../v2/transcription-order';
import { checkWebhookTarget } from '../v2/webhook-targets';
import { screenshotsOf } from '../v2/bot-screenshots';
import { checkVcJoin, legacyVcFieldNames } from '../vc-credentials/vc-join-checks';
import { botsWithMetadataPage } from './bots-with-metadata';
import { toMeetingData } from './meeting-data';

/**
 * The legacy bot endpoints at the root paths: the same commands as v2 (creation, leave), their own views
 * (legacy-bot-view.ts). Errors use the same envelope as v2 (docs/decisions.md).
 */
export const legacyBotsRouter = (deps: BotsRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/bots' });

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeLegacyCreateBotRequest(await readJsonBody(ctx), { sandboxHosts: deps.sandboxHosts }));
    if (request.webhook_url !== null) await checkWebhookTarget(deps.webhookTargets, 'body/webhook_url', request.webhook_url);
    const seal = (plain: string) => deps.secretBox.seal(plain);
    const config = botConfigFromLegacyRequest(request, seal);
    await checkVcJoin(deps, caller.team_id, config.vc, legacyVcFieldNames);
    const definition = {
      meeting_url: request.meeting_url,
      platform: request.platform,
      bot_name: request.bot_name,
      extra: request.extra,
      config,
    };
    const requester = requesterOf(deps.secretBox, caller, ctx.get('x-service-api-key'));
    const joinAt = orThrow(legacyJoinAt(request.start_time, nowIso(deps.commands)));
    // A start_time ahead makes a scheduled bot, on the same scheduler as POST /v2/bots/scheduled.
    const made = joinAt === null ? await createDefinedBot(deps, requester, definition) : await scheduleDefinedBot(deps, requester, definition, joinAt);
    await deps.projections.waitForPosition(made.position);
    ctx.body = { bot_id: made.bot_id };
  });

  router.get('/bots_with_metadata', async (ctx) => {
    const query = orThrow(decodeBotsWithMetadataQuery(ctx.query));
    ctx.body = await botsWithMetadataPage(deps.readStore, callerOf(ctx).team_id, query, nowIso(deps.commands));
  });

  router.get('/meeting_data', async (ctx) => {
    const caller = callerOf(ctx);
    const query = orThrow(decodeMeetingDataQuery(ctx.query));
    const stored = await deps.readStore.get<LegacyBotView>(LEGACY_BOTS, query.bot_id);
    if (!stored || stored.doc.team_id !== caller.team_id) throw notFound('FST_ERR_BOT_NOT_FOUND', 'Bot not found');
    // Every read is an access: counted in the list, kept in the bot's audit (coalesced: data-access-tally.ts).
    const accessed = await deps.dataAccess.read(query.bot_id, caller.key_id);
    if (E.isLeft(accessed)) throw refusalToApiError(accessed.left);
    await deps.projections.waitForPosition(accessed.right.position);
    ctx.body = await toMeetingData(stored.doc, deps.links, { includeTranscripts: query.include_transcripts });
  });

  /** Meeting BaaS's v1 re-transcribe (docs/decisions.md); its end is `transcription_complete` or `transcription_failed`. */
  router.post('/retranscribe', async (ctx) => {
    const { bot_uuid, asked } = orThrow(decodeLegacyRetranscribeRequest(await readJsonBody(ctx, { required: true })));
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), bot_uuid);
    const configured = await transcriptionOfBot(deps.commands, bot.bot_id);
    const requested = await retranscribeBot(deps.commands, bot.bot_id, transcriptionOrderFor(deps.secretBox, 'body/speech_to_text', configured, asked));
    if (E.isLeft(requested)) throw refusalToApiError(requested.left);
    await deps.projections.waitForPosition(requested.right.position);
    ctx.status = 202;
    ctx.body = { ok: true, bot_id: bot.bot_id };
  });

  /** Meeting BaaS's v1 screenshots: every screenshot of the bot, oldest first, `{date, url}` with a link signed now. */
  router.get('/:bot_id/screenshots', async (ctx) => {
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
    ctx.body = (await screenshotsOf(bot, deps.links)).map((s) => ({ date: s.taken_at, url: s.url }));
  });

  router.delete('/:bot_id', async (ctx) => {
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
    const left = await leaveBot(deps.commands, deps.control, bot.bot_id);
    if (E.isLeft(left)) throw refusalToApiError(left.left);
    await deps.projections.waitForPosition(left.right.position);
    ctx.body = { ok: true };
  });

  return router;
};
