import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type { BotControl } from '../../adapters/bot-control/port';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import type { DataAccessTally } from '../../commands/data-access-tally';
import { leaveBot } from '../../commands/leave-bot';
import { retranscribeBot, transcriptionOfBot } from '../../commands/retranscribe-bot';
import { sendChatMessage } from '../../commands/send-chat-message';
import { botStreamName } from '../../domain/bot/bot-events';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { BOTS, type BotView } from '../../projections/bot-view';
import { ApiError, orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeChatMessageRequest } from '../codecs/chat-message-request';
import { decodeListQuery } from '../codecs/list-query';
import { decodeRetranscribeRequest } from '../codecs/transcription-choice';
import { parseBotIdParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { auditOfBot } from './bot-audit';
import { batchRoute, oneBotRoute } from './bot-creation-routes';
import { findBotOfCaller } from './bot-access';
import { createBotFromBody } from './bots-from-requests';
import { toBotDetails, toBotSummary, type ArtifactLinks } from './bot-details';
import { SCREENSHOT_PAGES, screenshotsPage } from './bot-screenshots';
import { toBotStatus } from './bot-status';
import { refusalToApiError } from './refusal-to-api-error';
import { transcriptionOrderFor } from './transcription-order';
import { newestFirstPage } from './newest-first-page';
import { addScheduledBotRoutes } from './scheduled-bots-router';
import type { WebhookTargets } from './webhook-targets';

export interface BotsRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly control: BotControl;
  readonly links: ArtifactLinks;
  readonly sandboxHosts: boolean;
  readonly secretBox: SecretBox;
  readonly webhookTargets: WebhookTargets;
  /** reads of the legacy meeting_data, recorded coalesced */
  readonly dataAccess: DataAccessTally;
}

const ok = (data: unknown) => ({ success: true, data });

/** Read-your-writes: a write answers once the read models show it (bounded wait). */
const visible = async (deps: BotsRouterDeps, position: bigint | null) => {
  await deps.projections.waitForPosition(position);
};

export const botsRouter = (deps: BotsRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/bots' });

  router.post('/', oneBotRoute(deps, (requester, body) => createBotFromBody(deps, requester, body)));
  router.post('/batch', batchRoute(deps, (requester, item) => createBotFromBody(deps, requester, item)));

  // Before the `/:bot_id` routes: `scheduled` is a path, not a bot id.
  addScheduledBotRoutes(router, deps);

  router.get('/', async (ctx) => {
    const caller = callerOf(ctx);
    const query = orThrow(decodeListQuery(ctx.query));
    const page = await newestFirstPage<BotView>(deps.readStore, BOTS, { team_id: caller.team_id }, 'created_at', query);
    ctx.body = ok({ bots: page.items.map(toBotSummary), next_cursor: page.next_cursor });
  });

  router.get('/:bot_id', async (ctx) => {
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
    ctx.body = ok(await toBotDetails(bot, deps.links));
  });

  /** What a client polls: the status and its history from the read model alone (GETs are not rate limited). */
  router.get('/:bot_id/status', async (ctx) => {
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
    ctx.body = ok(toBotStatus(bot));
  });

  /** The bot's screenshots, oldest first, each with a link signed now (50 a page, at most 250: the official client's). */
  router.get('/:bot_id/screenshots', async (ctx) => {
    const botId = orThrow(parseBotIdParam(ctx.params.bot_id));
    const query = orThrow(decodeListQuery(ctx.query, SCREENSHOT_PAGES));
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), botId);
    ctx.body = await screenshotsPage(bot, deps.links, query);
  });

  router.get('/:bot_id/events', async (ctx) => {
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
    const events = await deps.commands.eventStore.readStream(botStreamName(bot.bot_id));
    ctx.body = ok({ bot_id: bot.bot_id, events: auditOfBot(events) });
  });

  router.post('/:bot_id/leave', async (ctx) => {
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), orThrow(parseBotIdParam(ctx.params.bot_id)));
    const left = await leaveBot(deps.commands, deps.control, bot.bot_id);
    if (E.isLeft(left)) throw refusalToApiError(left.left);
    await visible(deps, left.right.position);
    ctx.body = ok({ message: left.right.message });
  });

  router.post('/:bot_id/send-chat-message', async (ctx) => {
    const botId = orThrow(parseBotIdParam(ctx.params.bot_id));
    const { message } = orThrow(decodeChatMessageRequest(await readJsonBody(ctx)));
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), botId);
    const sent = await sendChatMessage(deps.commands, deps.control, bot.bot_id, message);
    if (E.isLeft(sent)) throw refusalToApiError(sent.left);
    await visible(deps, sent.right.position);
    ctx.body = ok({ message: 'Chat message sent' });
  });

  /**
   * Transcribes a completed bot's recording again (docs/decisions.md): with the bot's own provider and key
   * unless the body names others. A key is reused only for the provider it was given for.
   */
  router.post('/:bot_id/retranscribe', async (ctx) => {
    const botId = orThrow(parseBotIdParam(ctx.params.bot_id));
    const { transcription: asked } = orThrow(decodeRetranscribeRequest(await readJsonBody(ctx)));
    const bot = await findBotOfCaller(deps.readStore, callerOf(ctx), botId);
    const configured = await transcriptionOfBot(deps.commands, bot.bot_id);
    const requested = await retranscribeBot(deps.commands, bot.bot_id, transcriptionOrderFor(deps.secretBox, 'body/transcription', configured, asked));
    if (E.isLeft(requested)) throw refusalToApiError(requested.left);
    await visible(deps, requested.right.position);
    ctx.status = 202;
    ctx.body = ok({ message: 'Transcription requested', request_id: requested.right.request_id });
  });

  return router;
};

export type { ApiError };
