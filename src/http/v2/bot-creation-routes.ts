import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { orThrow } from '../api-error';
import { callerOf, type AppContext } from '../app-context';
import { readJsonBody } from '../read-json-body';
import { decodeBatchBody, runBatch } from './batch';
import { requesterOf, type MadeBot, type Requester } from './bots-from-requests';

interface RouteDeps {
  readonly secretBox: SecretBox;
  readonly projections: ReadModelProgress;
}

/** Makes one bot from one request body (createBotFromBody, scheduleBotFromBody), throwing its ApiError. */
type MakeBot = (requester: Requester, body: unknown) => Promise<MadeBot>;

const requesterOfContext = (deps: RouteDeps, ctx: AppContext) => requesterOf(deps.secretBox, callerOf(ctx), ctx.get('x-service-api-key'));

/** POST of one bot: 201 with its id, once the read models show it (read-your-writes). */
export const oneBotRoute = (deps: RouteDeps, makeBot: MakeBot) => async (ctx: AppContext) => {
  const made = await makeBot(requesterOfContext(deps, ctx), await readJsonBody(ctx));
  await deps.projections.waitForPosition(made.position);
  ctx.status = 201;
  ctx.body = { success: true, data: { bot_id: made.bot_id } };
};

/**
 * POST of a batch: 200 once the read models show every bot made, in the official client's shape: `data` the
 * items made, `errors` the items refused (each the body its single request would get), both by `index` in
 * request order; `succeeded` and `failed` count them.
 */
export const batchRoute = (deps: RouteDeps, makeBot: MakeBot) => async (ctx: AppContext) => {
  const items = orThrow(decodeBatchBody(await readJsonBody(ctx)));
  const requester = requesterOfContext(deps, ctx);
  const outcome = await runBatch(items, (item) => makeBot(requester, item), ctx.state);
  await deps.projections.waitForPosition(outcome.position);
  ctx.body = { success: true, data: outcome.created, errors: outcome.errors, succeeded: outcome.created.length, failed: outcome.errors.length };
};
