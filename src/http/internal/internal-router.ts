import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type Koa from 'koa';
import type { ControlRequest, ControlResult } from '../../../contract/bot-contract';
import type { BotPolls } from '../../adapters/bot-control/port';
import type { BotContacts } from '../../commands/bot-contacts';
import type { ArtifactStores } from '../../adapters/object-store/artifact-stores';
import { isSafeObjectKey } from '../../adapters/object-store/port';
import type { Signer } from '../../adapters/signing/signer';
import type { CommandDeps } from '../../commands/command-deps';
import { handleBotCommand, loadBot } from '../../commands/bot-commands';
import { nowIso } from '../../commands/command-deps';
import { pendingRequestsOf, STANDING_LEAVE_ID, type PendingControlRequest } from '../../domain/bot/bot-control';
import { recordBotReport } from '../../commands/record-bot-report';
import type { BotState as BotAggregate } from '../../domain/bot/bot-decider';
import { isTerminal } from '../../domain/bot/bot-status';
import { recordStorageAccessFailure } from '../../commands/storage-commands';
import type { ReadStore } from '../../adapters/read-store/port';
import { botStorageOf, customerStorageOf } from '../../projections/bot-storage-view';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { ApiError, conflict, orThrow, unauthorized, validationError } from '../api-error';
import type { AppState } from '../app-context';
import { BotReportCodec } from '../codecs/bot-report';
import { parseBotIdParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { refusalToApiError } from '../v2/refusal-to-api-error';
import { storeUpload, type UploadGuards } from './artifact-upload';

export interface InternalRouterDeps {
  readonly commands: CommandDeps;
  /** where a long poll waits for a request recorded for its bot, on any instance */
  readonly polls: BotPolls;
  readonly contacts: BotContacts;
  /** while a bot's long poll is held, its contact is noted this often (it is alive as long as it listens) */
  readonly contactRefreshMs: number;
  readonly stores: ArtifactStores;
  readonly signer: Signer;
  readonly projections: ReadModelProgress;
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
export const requireBotToken = (deps: Pick<InternalRouterDeps, 'signer' | 'contacts' | 'commands'>): Koa.Middleware<BotState> => async (ctx, next) => {
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
  // Liveness is best effort: a call still goes through when the shared store is slow to take the note.
  await deps.contacts.note(botId).catch((err) => ctx.state.log?.warn({ err, bot_id: botId }, 'could not note the bot’s contact'));
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
 * What a poll hands over comes from the bot's own stream (bot-control.ts): the leave, standing until the
 * bot answers it (also for a bot the service already ended while its process lived on), and the chat
 * requests without an outcome. Then polls wait again as usual (the bot goes on polling while it finishes,
 * and must not spin).
 */
const toControlRequest = (request: PendingControlRequest): ControlRequest => request;

const CHAT_FAILURES: ReadonlySet<string> = new Set(['chat_disabled', 'not_in_call', 'failed']);

const presentOrRefused = (bot: BotAggregate): PresentBot => {
  if (bot.kind !== 'present') throw unauthorized('The bot no longer exists');
  return bot;
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
    if (report.kind === 'end') deps.contacts.forget(ctx.state.botId);
    ctx.status = 204;
  });

  router.get('/control', async (ctx) => {
    const botId = ctx.state.botId;
    const wait = Math.min(MAX_POLL_SECONDS, Math.max(0, Number(ctx.query.wait_seconds ?? 20) || 0));
    // Waiting starts before the stream is read again, so that a request recorded in between is not missed.
    const next = deps.polls.nextChange(botId, wait * 1000);
    // A bot is alive while it listens; a bot whose process died drops the connection, and the noting stops.
    const listening = setInterval(() => void deps.contacts.note(botId).catch(() => undefined), deps.contactRefreshMs);
    const hungUp = () => next.cancel();
    ctx.res.once('close', hungUp);
    try {
      let pending = pendingRequestsOf(presentOrRefused(await loadBot(deps.commands, botId)));
      if (pending.length === 0 && wait > 0) {
        await next.changed;
        pending = pendingRequestsOf(presentOrRefused(await loadBot(deps.commands, botId)));
      }
      ctx.body = { requests: pending.map(toControlRequest) };
    } finally {
      next.cancel();
      clearInterval(listening);
      ctx.res.off('close', hungUp);
    }
  });

  router.post('/control/:request_id/result', async (ctx) => {
    const body = await readJsonBody(ctx);
    if (!isControlResult(body) || body.id !== ctx.params.request_id) throw validationError('body', 'is not the result of this request');
    if (!body.ok && !CHAT_FAILURES.has(body.reason)) throw validationError('body/reason', 'must be chat_disabled, not_in_call or failed');
    const now = nowIso(deps.commands);
    const recorded =
      body.id === STANDING_LEAVE_ID
        ? await handleBotCommand(deps.commands, ctx.state.botId, { type: 'AcknowledgeLeave', now })
        : await handleBotCommand(deps.commands, ctx.state.botId, {
            type: 'RecordChatAnswer',
            request_id: body.id,
            outcome: body.ok ? { ok: true } : { ok: false, reason: body.reason, message: body.message },
            now,
          });
    if (E.isLeft(recorded)) throw refusalToApiError(recorded.left);
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
