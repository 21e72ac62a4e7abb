import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { finalMessageOfBot, redeliverFinalMessage, type FinalMessage } from '../../commands/redeliver-final-webhook';
import { loadBotFacts } from '../../commands/bot-commands';
import type { RequestedBotConfig } from '../../domain/bot/bot-config';
import type { CreatedBy } from '../../domain/bot/bot-events';
import { isTerminal, type BotStatus } from '../../domain/bot/bot-status';
import { endpointWants } from '../../domain/webhooks/webhook-event-types';
import type { CallbackOverride } from '../../domain/webhooks/webhook-delivery-events';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointView } from '../../projections/webhooks/webhook-endpoint-view';
import { ApiError, conflict, orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { parseBotIdParam } from '../codecs/path-uuid';
import { decodeRetryCallback, type RetryCallbackRequest } from '../codecs/webhook-requests';
import { readJsonBody } from '../read-json-body';
import { findBotOfCaller } from './bot-access';
import { requesterOf } from './bots-from-requests';
import { checkWebhookTarget, type WebhookTargets } from './webhook-targets';

export interface RedeliveryRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly secretBox: SecretBox;
  readonly webhookTargets: WebhookTargets;
  /** new messages were queued: the delivery worker can look at once */
  readonly queued: () => void;
}

const ok = (data: unknown) => ({ success: true, data });

/** What the bot was asked to do (its callback, a legacy bot's webhook_url) as it stands. */
const configOf = async (deps: RedeliveryRouterDeps, botId: string): Promise<RequestedBotConfig | null> =>
  (await loadBotFacts(deps.commands, botId))?.config ?? null;

const notEnded = (status: string) => conflict('FST_ERR_BOT_STATUS', `The bot has not ended yet (status: ${status}): it has no final event to send`);

const badRequest = (code: string, message: string) => new ApiError({ status: 400, code, message });

/** The bot's final event, which exists once it has ended (409 while it runs). */
const finalMessageOf = async (deps: RedeliveryRouterDeps, botId: string, status: BotStatus): Promise<FinalMessage> => {
  if (!isTerminal(status)) throw notEnded(status);
  const final = await finalMessageOfBot(deps.commands, botId);
  if (final === null) throw notEnded(status);
  return final;
};

/**
 * `resend-webhook` sends a bot's final event again to the team's endpoints (those on and subscribed to it
 * now); `retry-callback` to its callback, or to another URL, method or secret given in the body. Same
 * `webhook-id` as the first time, fresh links. Idempotent: what is still on its way is not queued twice.
 */
export const redeliveryRouter = (deps: RedeliveryRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/bots' });

  router.post('/:bot_id/resend-webhook', async (ctx) => {
    const caller = callerOf(ctx);
    const bot = await findBotOfCaller(deps.readStore, caller, orThrow(parseBotIdParam(ctx.params.bot_id)));
    const final = await finalMessageOf(deps, bot.bot_id, bot.status);
    const config = await configOf(deps, bot.bot_id);
    if (config?.api === 'legacy' && config.webhook_url !== null) {
      // A legacy bot's webhooks go to its own webhook_url, and so does their resend.
      const queued = await redeliverFinalMessage(deps.commands, final, { kind: 'bot_webhook', bot_id: bot.bot_id }, { request_id: randomUUID(), callback: null });
      deps.queued();
      ctx.body = ok({ message: `The final webhook (${final.event_type}) is being sent again`, message_id: final.message_id, endpoints: 0, queued: queued ? 1 : 0 });
      return;
    }
    const endpoints = (await deps.readStore.find<WebhookEndpointView>(WEBHOOK_ENDPOINTS, { where: { team_id: caller.team_id, deleted: false, enabled: true } }))
      .filter((e) => endpointWants(e.events, final.event_type));
    if (endpoints.length === 0) throw badRequest('FST_ERR_NO_WEBHOOK_ENDPOINT', `No enabled webhook endpoint of the team receives ${final.event_type}`);
    const request_id = randomUUID();
    let queued = 0;
    for (const endpoint of endpoints) {
      if (await redeliverFinalMessage(deps.commands, final, { kind: 'endpoint', endpoint_id: endpoint.id }, { request_id, callback: null })) queued += 1;
    }
    deps.queued();
    ctx.body = ok({ message: `The final webhook (${final.event_type}) is being sent again`, message_id: final.message_id, endpoints: endpoints.length, queued });
  });

  router.post('/:bot_id/retry-callback', async (ctx) => {
    const caller = callerOf(ctx);
    const botId = orThrow(parseBotIdParam(ctx.params.bot_id));
    const overrides = orThrow(decodeRetryCallback(await readJsonBody(ctx)));
    const bot = await findBotOfCaller(deps.readStore, caller, botId);
    const final = await finalMessageOf(deps, bot.bot_id, bot.status);
    const callback = await callbackForRetry(deps, bot.bot_id, overrides, requesterOf(deps.secretBox, caller, ctx.get('x-service-api-key')).createdBy);
    const queued = await redeliverFinalMessage(deps.commands, final, { kind: 'callback', bot_id: bot.bot_id }, { request_id: randomUUID(), callback });
    deps.queued();
    ctx.body = ok({ message: `The callback (${final.event_type}) is being sent again`, message_id: final.message_id, queued });
  });

  return router;
};

/**
 * Where a retry goes: the bot's own callback with whatever the body overrides (null: the bot's own,
 * unchanged). A bot created without a callback needs at least a URL. An override acts for the key that
 * asked (its delivery carries that key), and the bot's own secret goes only to the bot's own URL: a
 * retry elsewhere is signed with the secret given in the body, or not at all.
 */
const callbackForRetry = async (
  deps: RedeliveryRouterDeps,
  botId: string,
  overrides: RetryCallbackRequest,
  requestedBy: CreatedBy,
): Promise<CallbackOverride | null> => {
  const own = (await configOf(deps, botId))?.callback ?? null;
  const url = overrides.url ?? own?.url;
  if (url === undefined) throw badRequest('FST_ERR_NO_CALLBACK', 'The bot has no callback: give a url in the body');
  if (Object.keys(overrides).length === 0) return null;
  if (overrides.url !== undefined) await checkWebhookTarget(deps.webhookTargets, 'body/url', overrides.url);
  const ownSecret = own !== null && own.url === url ? own.secret : null;
  return {
    url,
    method: overrides.method ?? own?.method ?? 'POST',
    secret: overrides.secret !== undefined ? deps.secretBox.seal(overrides.secret) : ownSecret,
    requested_by: requestedBy,
  };
};
