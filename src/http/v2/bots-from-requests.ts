import * as E from 'fp-ts/Either';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { createBot } from '../../commands/create-bot';
import { scheduleBot } from '../../commands/schedule-bot';
import type { BotDefinition } from '../../domain/bot/bot-decider';
import type { CreatedBy } from '../../domain/bot/bot-events';
import { BOTS } from '../../projections/bot-view';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { orThrow } from '../api-error';
import type { Caller } from '../app-context';
import { decodeCreateBotRequest, type CreateBotRequest } from '../codecs/create-bot-request';
import { decodeScheduledBotRequest } from '../codecs/scheduled-bot-request';
import { botConfigFromV2Request } from '../codecs/v2-bot-config';
import { withinTeamLimit } from '../team-limit-guard';
import { refusalToApiError } from './refusal-to-api-error';
import { checkVcJoin, v2VcFieldNames } from '../vc-credentials/vc-join-checks';
import { checkWebhookTarget, type WebhookTargets } from './webhook-targets';

export interface BotRequestDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly sandboxHosts: boolean;
  readonly secretBox: SecretBox;
  readonly webhookTargets: WebhookTargets;
}

/** Who asks: the team, and the key that created the bot, sealed (its webhooks carry it). */
export interface Requester {
  readonly caller: Caller;
  readonly createdBy: CreatedBy;
}

export interface MadeBot {
  readonly bot_id: string;
  readonly position: bigint | null;
}

/** The key of the request, sealed once per request (a batch shares it). */
export const requesterOf = (secretBox: SecretBox, caller: Caller, apiKey: string): Requester => ({
  caller,
  createdBy: { key_id: caller.key_id, api_key: secretBox.seal(apiKey) },
});

/** A callback the service would never send to is refused at once, as POST /v2/bots refuses it. */
export const checkCallbackTarget = async (deps: Pick<BotRequestDeps, 'webhookTargets'>, request: CreateBotRequest): Promise<void> => {
  if (request.callback_enabled && request.callback_config) await checkWebhookTarget(deps.webhookTargets, 'body/callback_config/url', request.callback_config.url);
};

/** What a request names beyond its own fields, checked before anything is reserved: its callback, its vc token URLs and credentials. */
export const checkRequestTargets = async (deps: Pick<BotRequestDeps, 'webhookTargets' | 'readStore' | 'secretBox'>, teamId: string, request: CreateBotRequest): Promise<void> => {
  await checkCallbackTarget(deps, request);
  if (request.vc_config) await checkVcJoin(deps, teamId, definitionOf(deps, request).config.vc, v2VcFieldNames);
};

/** A decoded v2 request as the domain's definition of a bot, secrets sealed. */
export const definitionOf = (deps: Pick<BotRequestDeps, 'secretBox'>, request: CreateBotRequest): BotDefinition => ({
  meeting_url: request.meeting_url,
  platform: request.platform,
  bot_name: request.bot_name,
  extra: request.extra,
  config: botConfigFromV2Request(request, (plain) => deps.secretBox.seal(plain)),
});

/**
 * One POST /v2/bots body, decoded, admitted and created; a refusal is thrown as the ApiError the endpoint
 * answers. A batch item goes through exactly this.
 */
export const createBotFromBody = async (deps: BotRequestDeps, requester: Requester, body: unknown): Promise<MadeBot> => {
  const request = orThrow(decodeCreateBotRequest(body, { sandboxHosts: deps.sandboxHosts }));
  await checkRequestTargets(deps, requester.caller.team_id, request);
  return createDefinedBot(deps, requester, definitionOf(deps, request));
};

/** A bot of either API's request, admitted and created now; a refusal is thrown as its ApiError. */
export const createDefinedBot = async (deps: BotRequestDeps, requester: Requester, definition: BotDefinition): Promise<MadeBot> => {
  const created = await createBot(deps.commands, { team_id: requester.caller.team_id, ...definition, created_by: requester.createdBy });
  if (E.isLeft(created)) throw refusalToApiError(created.left);
  return created.right;
};

/**
 * One POST /v2/bots/scheduled body, decoded and scheduled: nothing is reserved or checked against the daily
 * cap now, but the team may hold only so many bots waiting for their time (its `scheduled_bots` limit).
 */
export const scheduleBotFromBody = async (deps: BotRequestDeps, requester: Requester, body: unknown): Promise<MadeBot> => {
  const { join_at, request } = orThrow(
    decodeScheduledBotRequest(body, { sandboxHosts: deps.sandboxHosts, now: deps.commands.clock().toISOString() }),
  );
  await checkRequestTargets(deps, requester.caller.team_id, request);
  return scheduleDefinedBot(deps, requester, definitionOf(deps, request), join_at);
};

/** A bot of either API's request for `join_at`, within the team's limit of bots waiting for their time. */
export const scheduleDefinedBot = async (deps: BotRequestDeps, requester: Requester, definition: BotDefinition, join_at: string): Promise<MadeBot> => {
  const team_id = requester.caller.team_id;
  const waiting = () => deps.readStore.count(BOTS, { team_id, status: 'scheduled' });
  return withinTeamLimit(deps.readStore, team_id, 'scheduled_bots', waiting, async () => {
    const scheduled = await scheduleBot(deps.commands, { team_id, ...definition, created_by: requester.createdBy, join_at });
    if (E.isLeft(scheduled)) throw refusalToApiError(scheduled.left);
    // Counted by the next request only once the read models show it.
    await deps.projections.waitForPosition(scheduled.right.position);
    return scheduled.right;
  });
};
