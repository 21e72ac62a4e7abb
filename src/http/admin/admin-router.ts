import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type Koa from 'koa';
import type { EventStore } from '../../adapters/event-store/port';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { describeTeam } from '../../commands/describe-team';
import { createTeamWithKey, handleTeamCommand, issueApiKey } from '../../commands/team-commands';
import type { TeamRejection } from '../../domain/team/team-decider';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { ApiError, notFound, orThrow, unauthorized, validationError } from '../api-error';
import type { AppState } from '../app-context';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { decodeAddTokens, decodeCreateTeam, decodeIssueKey, decodeSetLimits, decodeSetRetention } from './admin-requests';

export interface AdminRouterDeps {
  readonly adminToken: string;
  readonly commands: CommandDeps;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly rebuild: () => Promise<unknown>;
}

const sameSecret = (presented: string, expected: string): boolean => {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const requireAdmin = (token: string): Koa.Middleware<AppState> => async (ctx, next) => {
  const header = ctx.get('authorization');
  const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  if (!presented || !sameSecret(presented, token)) throw unauthorized('Missing or invalid authorization header (expected Bearer <ADMIN_TOKEN>)');
  await next();
};

const teamRefusal = (rejection: TeamRejection): ApiError =>
  rejection.code === 'TEAM_NOT_FOUND' || rejection.code === 'API_KEY_NOT_FOUND'
    ? notFound(rejection.code === 'TEAM_NOT_FOUND' ? 'FST_ERR_TEAM_NOT_FOUND' : 'FST_ERR_API_KEY_NOT_FOUND', rejection.message)
    : validationError('body', rejection.message);

const ok = (data: unknown) => ({ success: true, data });

/** Teams and keys are not in the spec: this is the operator's side, guarded by ADMIN_TOKEN. */
export const adminRouter = (deps: AdminRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/admin' });
  router.use(requireAdmin(deps.adminToken));

  const teamIdOf = (raw: string | undefined) => orThrow(parseUuidParam('team_id', raw));

  router.post('/teams', async (ctx) => {
    const created = await createTeamWithKey(deps.commands, decodeCreateTeam(await readJsonBody(ctx)));
    if (E.isLeft(created)) throw teamRefusal(created.left);
    await deps.projections.waitForPosition(created.right.position);
    ctx.status = 201;
    ctx.body = ok({ team_id: created.right.team_id, key_id: created.right.key_id, api_key: created.right.api_key });
  });

  router.get('/teams/:team_id', async (ctx) => {
    const team = await describeTeam(deps.commands, teamIdOf(ctx.params.team_id));
    if (!team) throw notFound('FST_ERR_TEAM_NOT_FOUND', 'Team not found');
    ctx.body = ok(team);
  });

  router.post('/teams/:team_id/api-keys', async (ctx) => {
    const { permission } = decodeIssueKey(await readJsonBody(ctx));
    const issued = await issueApiKey(deps.commands, teamIdOf(ctx.params.team_id), permission);
    if (E.isLeft(issued)) throw teamRefusal(issued.left);
    await deps.projections.waitForPosition(issued.right.position);
    ctx.status = 201;
    ctx.body = ok({ key_id: issued.right.key_id, api_key: issued.right.api_key, permission });
  });

  router.delete('/teams/:team_id/api-keys/:key_id', async (ctx) => {
    const keyId = orThrow(parseUuidParam('key_id', ctx.params.key_id));
    const revoked = await handleTeamCommand(deps.commands, teamIdOf(ctx.params.team_id), {
      type: 'RevokeApiKey',
      key_id: keyId,
      now: deps.commands.clock().toISOString(),
    });
    if (E.isLeft(revoked)) throw teamRefusal(revoked.left);
    await deps.projections.waitForPosition(revoked.right.position);
    ctx.body = ok({ key_id: keyId, revoked: true });
  });

  router.post('/teams/:team_id/tokens', async (ctx) => {
    const teamId = teamIdOf(ctx.params.team_id);
    const { amount } = decodeAddTokens(await readJsonBody(ctx));
    const added = await handleTeamCommand(deps.commands, teamId, {
      type: 'AddTokens',
      operation_id: deps.commands.newId(),
      amount,
      now: deps.commands.clock().toISOString(),
    });
    if (E.isLeft(added)) throw teamRefusal(added.left);
    ctx.body = ok(await describeTeam(deps.commands, teamId));
  });

  router.put('/teams/:team_id/retention', async (ctx) => {
    const teamId = teamIdOf(ctx.params.team_id);
    const { retention_days } = decodeSetRetention(await readJsonBody(ctx));
    const set = await handleTeamCommand(deps.commands, teamId, { type: 'SetRetention', retention_days, now: deps.commands.clock().toISOString() });
    if (E.isLeft(set)) throw teamRefusal(set.left);
    await deps.projections.waitForPosition(set.right.position);
    ctx.body = ok(await describeTeam(deps.commands, teamId));
  });

  router.put('/teams/:team_id/limits', async (ctx) => {
    const teamId = teamIdOf(ctx.params.team_id);
    const { limits } = decodeSetLimits(await readJsonBody(ctx));
    const set = await handleTeamCommand(deps.commands, teamId, { type: 'SetLimits', limits, now: deps.commands.clock().toISOString() });
    if (E.isLeft(set)) throw teamRefusal(set.left);
    await deps.projections.waitForPosition(set.right.position);
    ctx.body = ok(await describeTeam(deps.commands, teamId));
  });

  router.post('/rebuild-projections', async (ctx) => {
    ctx.body = ok(await deps.rebuild());
  });

  return router;
};
