import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type Koa from 'koa';
import type { ControlRequest, ControlResult } from '../../../bot-runtime/contract';
import type { BotControlHub } from '../../adapters/bot-control/control-hub';
import type { ArtifactStores } from '../../adapters/object-store/artifact-stores';
import { isSafeObjectKey } from '../../adapters/object-store/port';
import type { Signer } from '../../adapters/signing/signer';
import type { CommandDeps } from '../../commands/command-deps';
import { loadBot } from '../../commands/bot-commands';
import { recordBotReport } from '../../commands/record-bot-report';
import type { BotState as BotAggregate } from '../../domain/bot/bot-decider';
import { isTerminal } from '../../domain/bot/bot-status';
import { recordStorageAccessFailure } from '../../commands/storage-commands';
import type { ReadStore } from '../../adapters/read-store/port';
import { botStorageOf, customerStorageOf } from '../../projections/bot-storage-view';
import { BOTS, type BotView } from '../../projections/bot-view';
import type { ProjectionRunner } from '../../projections/projection-runner';
import { ApiError, conflict, orThrow, unauthorized, validationError } from '../api-error';
import type { AppState } from '../app-context';
import { BotReportCodec } from '../codecs/bot-report';
import { parseBotIdParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { refusalToApiError } from '../v2/refusal-to-api-error';
import { storeUpload, type UploadGuards } from './artifact-upload';

export interface InternalRouterDeps {
  readonly commands: CommandDeps;
  readonly control: BotControlHub;
  readonly stores: ArtifactStores;
  readonly signer: Signer;
  readonly projections: ProjectionRunner;
  readonly readStore: ReadStore;
  readonly uploads: UploadGuards;
}

type PresentBot = Extract<BotAggregate, { kind: 'present' }>;

/** The bot id of the path, in the one form the event streams use, and the bot, once its token has been checked. */
export type BotState = AppState & { botId: string; bot: PresentBot };

const MAX_POLL_SECONDS = 30;

/**
 * Every internal call carries the bot's own token: a bot can only speak for itself, and only for its
 * current run, until the token expires. The bot's state is read from its stream (the read models may not
 * have seen its dispatch yet). Any such call also tells the service the bot is alive (the dispatcher
 * watches bots it has no process of).
 */
export const requireBotToken = (deps: Pick<InternalRouterDeps, 'signer' | 'control' | 'commands'>): Koa.Middleware<BotState> => async (ctx, next) => {
  const botId = orThrow(parseBotIdParam((ctx as unknown as { params: { bot_id?: string } }).params.bot_id));
  const header = ctx.get('authorization');
  const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const claims = token ? deps.signer.botTokenClaims(botId, token) : null;
  const refused = () => unauthorized('Missing, invalid or expired bot token (authorization: Bearer <token> of this run of the bot)');
  if (!claims || claims.expiresAtSeconds * 1000 <= deps.commands.clock().getTime()) throw refused();
  const bot = await loadBot(deps.commands, botId);
  if (bot.kind !== 'present' || bot.runId !== claims.runId) throw refused();
  ctx.state.botId = botId;
  ctx.state.bot = bot;
  deps.control.noteContact(botId);
  await next();
};

/**
 * Once a bot has ended, nothing it sends changes it: its token still reads the control channel (which
 * only tells it to leave) and a repeated end report is answered as the first was.
 */
const refuseAfterEnd = (bot: PresentBot): void => {
  if (isTerminal(bot.status)) throw conflict('FST_ERR_BOT_ENDED', `The bot has ended (${bot.status}): the service accepts nothing more from it`);
};

/**
 * A leave that must reach the bot even if the API call could not: the bot was not listening yet when it
 * was asked (still starting), or the service restarted and already ended it while its process lived on.
 * It comes with every poll, at once, until the bot answers it; then polls wait again as usual (the bot
 * goes on polling while it finishes, and must not spin).
 */
const STANDING_LEAVE: ControlRequest = { id: 'leave-requested', kind: 'leave' };
const mustLeave = async (readStore: ReadStore, botId: string): Promise<boolean> => {
  const bot = (await readStore.get<BotView>(BOTS, botId))?.doc;
  return bot !== undefined && (bot.leave_requested || bot.ended_at !== null);
};

const decodeOrThrow = <A>(decoder: { decode: (u: unknown) => E.Either<unknown, A> }, body: unknown, what: string): A => {
  const decoded = decoder.decode(body);
  if (E.isLeft(decoded)) throw validationError('body', `is not a valid ${what}`);
  return decoded.right;
};

const isControlResult = (u: unknown): u is ControlResult =>
  typeof u === 'object' && u !== null && typeof (u as { id?: unknown }).id === 'string' && typeof (u as { ok?: unknown }).ok === 'boolean';

/** The bot's side of the service: reports, the control long poll, and artifact uploads. */
export const internalRouter = (deps: InternalRouterDeps): Router<BotState> => {
  const router = new Router<BotState>({ prefix: '/internal/bots/:bot_id' });
  router.use(requireBotToken(deps));

  router.post('/reports', async (ctx) => {
    const report = decodeOrThrow(BotReportCodec, await readJsonBody(ctx), 'bot report');
    if (report.kind !== 'end') refuseAfterEnd(ctx.state.bot);
    if ('key' in report && !isSafeObjectKey(report.key)) throw validationError('body/key', 'is not a safe object key');
    if (report.kind === 'artifact_spilled') {
      const held = await deps.stores.service.get(`${ctx.state.botId}/${report.key}`);
      held?.body.destroy();
      if (!held) throw conflict('FST_ERR_ARTIFACT_NOT_HELD', 'The service holds no copy of this artifact: upload it here first');
    }
    const result = await recordBotReport(deps.commands, ctx.state.botId, report);
    if (E.isLeft(result)) throw refusalToApiError(result.left);
    if (report.kind === 'artifact_failed' || report.kind === 'artifact_spilled') {
      const customer = await customerStorageOf(deps.readStore, ctx.state.botId);
      if (customer) await recordStorageAccessFailure(deps.commands, customer.team_id, customer.storage, `A bot could not store ${report.key}: ${report.reason}`);
    }
    await deps.projections.waitForPosition(result.right.position);
    if (report.kind === 'end') deps.control.forget(ctx.state.botId);
    ctx.status = 204;
  });

  router.get('/control', async (ctx) => {
    const wait = Math.min(MAX_POLL_SECONDS, Math.max(0, Number(ctx.query.wait_seconds ?? 20) || 0));
    if (deps.control.hasAcknowledgedStandingLeave(ctx.state.botId) || !(await mustLeave(deps.readStore, ctx.state.botId))) {
      ctx.body = { requests: await deps.control.poll(ctx.state.botId, wait * 1000) };
      return;
    }
    // No waiting: the bot gets what the hub holds for it (the API's own leave, answered to its caller) or the standing leave.
    const held = await deps.control.poll(ctx.state.botId, 0);
    ctx.body = { requests: held.some((r) => r.kind === 'leave') ? held : [...held, STANDING_LEAVE] };
  });

  router.post('/control/:request_id/result', async (ctx) => {
    const body = await readJsonBody(ctx);
    if (!isControlResult(body) || body.id !== ctx.params.request_id) throw validationError('body', 'is not the result of this request');
    if (body.id === STANDING_LEAVE.id) deps.control.acknowledgeStandingLeave(ctx.state.botId);
    else deps.control.resolve(ctx.state.botId, body);
    ctx.status = 204;
  });

  router.put('/artifacts/:key(.*)', async (ctx) => {
    const key = ctx.params.key ?? '';
    if (!isSafeObjectKey(key)) throw validationError('params/key', 'is not a safe object key');
    refuseAfterEnd(ctx.state.bot);
    const was = ctx.state.bot.artifacts[key];
    if (was === 'stored' || was === 'spilled' || was === 'expired') {
      throw conflict('FST_ERR_ARTIFACT_EXISTS', `The bot already stored ${key}: a stored artifact is never replaced`);
    }
    // A bot of a team's own storage writes to the team's bucket; the service takes a copy only to spill.
    const storage = await botStorageOf(deps.readStore, ctx.state.botId);
    if (storage.kind === 'customer' && !storage.settings.allow_transient_spill) {
      throw new ApiError({ status: 403, code: 'FST_ERR_FORBIDDEN', message: "This bot's artifacts go to its team's bucket, and the team does not allow transient spill" });
    }
    const upload = { store: deps.stores.service, objectKey: `${ctx.state.botId}/${key}`, key, contentType: ctx.get('content-type'), declaredLength: ctx.get('content-length') };
    await storeUpload(ctx.req, upload, deps.uploads).catch((err: unknown) => {
      // The rest of a refused body is not worth reading: the connection ends with the answer.
      if (err instanceof ApiError && (err.status === 413 || err.status === 507)) ctx.set('connection', 'close');
      throw err;
    });
    ctx.status = 204;
  });

  return router;
};

export type { ApiError };
