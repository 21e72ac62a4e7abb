import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { KeyVault } from '../../adapters/key-vault/port';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { deleteBotData } from '../../commands/delete-bot-data';
import { BOTS, type BotView } from '../../projections/bot-view';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { decodeDeleteDataQuery } from '../codecs/delete-data-query';
import type { DataDeletion } from '../codecs/responses/v2-bot-responses';
import { parseBotIdParam } from '../codecs/path-uuid';
import { findBotOfCaller } from '../v2/bot-access';
import { refusalToApiError } from '../v2/refusal-to-api-error';

export interface BotDataRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly keyVault: KeyVault;
  /** the erasure of a bot's artifacts, recorded by whichever instance holds the lease `data-erasure` (deleted-bot-data-watch.ts) */
  readonly erasures: { erasureOf(botId: string): { readonly recorded: Promise<bigint>; cancel(): void } };
  /** how long a request waits for the erasure of the artifacts before answering that it goes on (default 10 s) */
  readonly erasureWaitMs?: number;
}

/** deleted: everything is gone; partiallyDeleted: the personal data is, some artifacts are still being erased. */
type Outcome = t.TypeOf<typeof DataDeletion>;

interface Deleted {
  readonly outcome: Outcome;
  readonly bot: BotView;
}

const within = <T>(ms: number, work: Promise<T>): Promise<T | null> =>
  Promise.race([work, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

const MESSAGES: Readonly<Record<Outcome, string>> = {
  deleted: "The bot's data was deleted",
  partiallyDeleted: "The bot's personal data was deleted; some of its artifacts are still being erased",
  alreadyDeleted: "The bot's data was already deleted",
};

/**
 * Deleting a bot's data (Full Access keys only, as every route but the five creation POSTs): v2
 * `DELETE /v2/bots/{id}/delete-data` and legacy `POST /bots/{id}/delete_data`, in the official client's
 * shapes. The personal data is unreadable once the deletion is recorded; the request then waits, bounded,
 * for the erasure of the bot's artifacts, which goes on in the background if a store is slow or refuses.
 */
export const botDataRouter = (deps: BotDataRouterDeps): Router<AppState> => {
  const router = new Router<AppState>();

  const deleteData = async (ctx: AppContext & { params: Record<string, string | undefined> }): Promise<Deleted> => {
    const caller = callerOf(ctx);
    const bot = await findBotOfCaller(deps.readStore, caller, orThrow(parseBotIdParam(ctx.params.bot_id)));
    // Asked before the deletion is recorded: an erasure recorded at once is not missed.
    const erasure = deps.erasures.erasureOf(bot.bot_id);
    try {
      const deleted = await deleteBotData(deps.commands, deps.keyVault, bot.bot_id, caller.key_id);
      if (E.isLeft(deleted)) throw refusalToApiError(deleted.left);
      await deps.projections.waitForPosition(deleted.right.position);
      const erasedBefore = Boolean((await deps.readStore.get<BotView>(BOTS, bot.bot_id))?.doc.artifacts_erased_at);
      if (!erasedBefore) await deps.projections.waitForPosition(await within(deps.erasureWaitMs ?? 10_000, erasure.recorded));
      const afterwards = (await deps.readStore.get<BotView>(BOTS, bot.bot_id))!.doc;
      const outcome: Outcome = afterwards.artifacts_erased_at ? (deleted.right.alreadyDeleted ? 'alreadyDeleted' : 'deleted') : 'partiallyDeleted';
      return { outcome, bot: afterwards };
    } finally {
      erasure.cancel();
    }
  };

  router.delete('/v2/bots/:bot_id/delete-data', async (ctx) => {
    orThrow(decodeDeleteDataQuery(ctx.query));
    const { outcome, bot } = await deleteData(ctx);
    ctx.body = {
      success: true,
      data: { message: MESSAGES[outcome], bot_id: bot.bot_id, status: outcome, data_deleted_at: bot.data_deleted_at ?? null, artifacts_deleted: Boolean(bot.artifacts_erased_at) },
    };
  });

  router.post('/bots/:bot_id/delete_data', async (ctx) => {
    const { outcome } = await deleteData(ctx);
    ctx.body = { ok: true, status: outcome };
  });

  return router;
};
