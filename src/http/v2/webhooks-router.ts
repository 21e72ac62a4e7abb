import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import { newEndpointSecret } from '../../adapters/webhook-signing/standard-webhooks';
import { nowIso, type CommandDeps } from '../../commands/command-deps';
import { handleWebhookEndpointCommand } from '../../commands/webhook-commands';
import type { WebhookEndpointCommand } from '../../domain/webhooks/webhook-endpoint-decider';
import type { WebhookEventType } from '../../domain/webhooks/webhook-event-types';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { WEBHOOK_ATTEMPTS, type WebhookAttemptView } from '../../projections/webhooks/webhook-attempt-view';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointView } from '../../projections/webhooks/webhook-endpoint-view';
import { notFound, orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState, type Caller } from '../app-context';
import { decodeListQuery } from '../codecs/list-query';
import { parseUuidParam } from '../codecs/path-uuid';
import { decodeCreateWebhook, decodeUpdateWebhook } from '../codecs/webhook-requests';
import { readJsonBody } from '../read-json-body';
import type { WebhookDelivery, WebhookEndpoint } from '../codecs/responses/webhook-endpoint-responses';
import { withinTeamLimit } from '../team-limit-guard';
import { newestFirstPage } from './newest-first-page';
import { checkWebhookTarget, type WebhookTargets } from './webhook-targets';

export interface WebhooksRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly secretBox: SecretBox;
  readonly webhookTargets: WebhookTargets;
}

const ok = (data: unknown) => ({ success: true, data });

const webhookNotFound = () => notFound('FST_ERR_WEBHOOK_NOT_FOUND', 'Webhook endpoint not found');

/** An endpoint as the API shows it: never its secret. `events: null` means every kind, present and future. */
const toWebhook = (view: WebhookEndpointView): WebhookEndpoint => ({
  webhook_id: view.id,
  url: view.url,
  events: view.events.length === 0 ? null : (view.events as readonly WebhookEventType[]),
  description: view.description,
  enabled: view.enabled,
  disabled_reason: view.disabled_reason,
  created_at: view.created_at,
  updated_at: view.updated_at,
  last_success_at: view.last_success_at,
  failing_since: view.failing_since,
});

const toDelivery = (attempt: WebhookAttemptView): WebhookDelivery => ({
  message_id: attempt.webhook_id,
  event_type: attempt.event_type,
  bot_id: attempt.bot_id,
  attempt: attempt.attempt,
  attempted_at: attempt.attempted_at,
  url: attempt.url,
  status_code: attempt.status_code,
  error: attempt.error,
  duration_ms: attempt.duration_ms,
  succeeded: attempt.succeeded,
  next_attempt_at: attempt.next_attempt_at,
});

/** A team's own, not deleted endpoint; anything else does not exist for it. */
const findWebhookOfCaller = async (readStore: ReadStore, caller: Caller, id: string): Promise<WebhookEndpointView> => {
  const view = (await readStore.get<WebhookEndpointView>(WEBHOOK_ENDPOINTS, id))?.doc;
  if (!view || view.deleted || view.team_id !== caller.team_id) throw webhookNotFound();
  return view;
};

/** Account webhook endpoints (DESIGN.md "Delivery"), Full Access only (the authentication middleware refuses Sending Access). */
export const webhooksRouter = (deps: WebhooksRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/webhooks' });

  const run = async (ctx: AppContext, endpointId: string, command: WebhookEndpointCommand) => {
    const result = await handleWebhookEndpointCommand(deps.commands, endpointId, command);
    if (E.isLeft(result)) throw webhookNotFound();
    await deps.projections.waitForPosition(result.right.position);
    return findWebhookOfCaller(deps.readStore, callerOf(ctx), endpointId);
  };
  const idParam = (ctx: AppContext & { params: Record<string, string | undefined> }) => orThrow(parseUuidParam('webhook_id', ctx.params.webhook_id));

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeCreateWebhook(await readJsonBody(ctx, { required: true })));
    await checkWebhookTarget(deps.webhookTargets, 'body/url', request.url);
    const endpointId = deps.commands.newId();
    const secret = newEndpointSecret();
    const held = () => deps.readStore.count(WEBHOOK_ENDPOINTS, { team_id: caller.team_id, deleted: false });
    const view = await withinTeamLimit(deps.readStore, caller.team_id, 'webhook_endpoints', held, () =>
      run(ctx, endpointId, {
        type: 'AddEndpoint',
        endpoint_id: endpointId,
        team_id: caller.team_id,
        url: request.url,
        events: request.events,
        description: request.description,
        secret: deps.secretBox.seal(secret),
        now: nowIso(deps.commands),
      }),
    );
    ctx.status = 201;
    // The only time the secret is shown (and on rotation): it is stored sealed and never returned again.
    ctx.body = ok({ ...toWebhook(view), secret });
  });

  router.get('/', async (ctx) => {
    const caller = callerOf(ctx);
    const endpoints = await deps.readStore.find<WebhookEndpointView>(WEBHOOK_ENDPOINTS, {
      where: { team_id: caller.team_id, deleted: false },
      orderBy: [{ field: 'created_at', direction: 'asc' }],
    });
    ctx.body = ok({ webhooks: endpoints.map(toWebhook) });
  });

  router.get('/:webhook_id', async (ctx) => {
    ctx.body = ok(toWebhook(await findWebhookOfCaller(deps.readStore, callerOf(ctx), idParam(ctx))));
  });

  router.patch('/:webhook_id', async (ctx) => {
    const caller = callerOf(ctx);
    const endpointId = idParam(ctx);
    const changes = orThrow(decodeUpdateWebhook(await readJsonBody(ctx, { required: true })));
    await findWebhookOfCaller(deps.readStore, caller, endpointId);
    if (changes.url !== undefined) await checkWebhookTarget(deps.webhookTargets, 'body/url', changes.url);
    const view = await run(ctx, endpointId, { type: 'UpdateEndpoint', team_id: caller.team_id, changes, now: nowIso(deps.commands) });
    ctx.body = ok(toWebhook(view));
  });

  router.delete('/:webhook_id', async (ctx) => {
    const caller = callerOf(ctx);
    const endpointId = idParam(ctx);
    const result = await handleWebhookEndpointCommand(deps.commands, endpointId, { type: 'DeleteEndpoint', team_id: caller.team_id, now: nowIso(deps.commands) });
    if (E.isLeft(result)) throw webhookNotFound();
    await deps.projections.waitForPosition(result.right.position);
    ctx.body = ok({ webhook_id: endpointId, deleted: true });
  });

  router.post('/:webhook_id/rotate-secret', async (ctx) => {
    const caller = callerOf(ctx);
    const endpointId = idParam(ctx);
    const secret = newEndpointSecret();
    await run(ctx, endpointId, { type: 'RotateSecret', team_id: caller.team_id, secret: deps.secretBox.seal(secret), now: nowIso(deps.commands) });
    ctx.body = ok({ webhook_id: endpointId, secret });
  });

  router.get('/:webhook_id/deliveries', async (ctx) => {
    const caller = callerOf(ctx);
    const endpointId = idParam(ctx);
    const query = orThrow(decodeListQuery(ctx.query));
    await findWebhookOfCaller(deps.readStore, caller, endpointId);
    const page = await newestFirstPage<WebhookAttemptView>(deps.readStore, WEBHOOK_ATTEMPTS, { endpoint_id: endpointId }, 'attempted_at', query);
    ctx.body = ok({ deliveries: page.items.map(toDelivery), next_cursor: page.next_cursor });
  });

  return router;
};
