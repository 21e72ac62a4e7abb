import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import { KeyDestroyedError } from '../../adapters/key-vault/port';
import { deleteLogin, loginKeyId } from '../../commands/signed-in-logins/login-secrets';
import { handleLoginCommand } from '../../commands/signed-in-logins/login-streams';
import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { LOGINS, type LoginView } from '../../projections/signed-in-logins/login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from '../../projections/signed-in-logins/workspace-view';
import { orThrow, validationError } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeLoginPatch, decodeLoginRequest } from '../codecs/login-requests';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { loginNotFound, loginRefusal, nothingToChange, ok, workspaceNotFound, type SignedInLoginRouterDeps } from './deps';
import { loginResponse, utilizationResponse } from './responses';

const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * `/v2/tm-logins` and `/v2/mt-logins`: create, list, pool utilization, read, PATCH (rename, group,
 * password, extra, re-enable), delete (a login in use finishes its sessions first). Passwords (tm) are
 * sealed with the login's own key before they reach a command and never come back.
 */
export const loginsRouter = (deps: SignedInLoginRouterDeps, platform: LoginPlatform): Router<AppState> => {
  const router = new Router<AppState>({ prefix: `/v2/${platform}-logins` });

  const ownLogin = async (teamId: string, credentialId: string): Promise<LoginView> => {
    const view = (await deps.readStore.get<LoginView>(LOGINS, credentialId))?.doc;
    if (!view || view.team_id !== teamId || view.platform !== platform || view.deleted) throw loginNotFound(platform);
    return view;
  };
  const respond = async (teamId: string, credentialId: string, position: bigint | null) => {
    await deps.projections.waitForPosition(position);
    return loginResponse(await ownLogin(teamId, credentialId));
  };
  const teamLogins = (teamId: string) =>
    deps.readStore.find<LoginView>(LOGINS, { where: { team_id: teamId, platform, deleted: false }, orderBy: [{ field: 'created_at', direction: 'asc' }] });

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeLoginRequest(platform, await readJsonBody(ctx)));
    const workspace = (await deps.readStore.get<WorkspaceView>(LOGIN_WORKSPACES, request.workspace_id))?.doc;
    if (!workspace || workspace.team_id !== caller.team_id || workspace.platform !== platform || workspace.deleted) {
      throw workspaceNotFound(platform, `body/workspace_id names no ${platform} workspace of this team: create the workspace first`);
    }
    // Our identity provider can only assert accounts of the domain whose SSO profile points at it.
    if (platform === 'mt' && domainOf(request.email) !== workspace.domain) {
      throw validationError('body/email', `must be an account of the workspace's domain ${workspace.domain}`);
    }
    const credentialId = deps.commands.newId();
    const created = await handleLoginCommand(deps.commands, platform, credentialId, {
      type: 'CreateLogin',
      credential_id: credentialId,
      team_id: caller.team_id,
      platform,
      workspace_id: workspace.workspace_id,
      email: request.email,
      email_group: request.email_group === null ? null : request.email_group.toLowerCase(),
      name: request.name,
      extra: request.extra,
      password: request.password === null ? null : await deps.sealer.seal(loginKeyId(platform, credentialId), request.password),
      created_by: { key_id: caller.key_id, api_key: deps.secretBox.seal(ctx.get('x-service-api-key')) },
      now: deps.commands.clock().toISOString(),
    });
    if (E.isLeft(created)) throw loginRefusal(platform, created.left);
    ctx.status = 201;
    ctx.body = ok(await respond(caller.team_id, credentialId, created.right.position));
  });

  router.get('/', async (ctx) => {
    ctx.body = ok({ logins: (await teamLogins(callerOf(ctx).team_id)).map(loginResponse) });
  });

  router.get('/utilization', async (ctx) => {
    const teamId = callerOf(ctx).team_id;
    const workspaces = await deps.readStore.find<WorkspaceView>(LOGIN_WORKSPACES, { where: { team_id: teamId, platform, deleted: false } });
    ctx.body = ok(utilizationResponse(await teamLogins(teamId), workspaces));
  });

  router.get('/:credential_id', async (ctx) => {
    const id = orThrow(parseUuidParam('credential_id', ctx.params.credential_id));
    ctx.body = ok(loginResponse(await ownLogin(callerOf(ctx).team_id, id)));
  });

  router.patch('/:credential_id', async (ctx) => {
    const caller = callerOf(ctx);
    const id = orThrow(parseUuidParam('credential_id', ctx.params.credential_id));
    const patch = orThrow(decodeLoginPatch(platform, await readJsonBody(ctx)));
    const { reenable, password, ...fields } = patch;
    if (Object.keys(fields).length === 0 && password === undefined && !reenable) {
      throw nothingToChange(['name', 'email_group', 'extra', ...(platform === 'tm' ? ['password'] : []), 'state']);
    }
    await ownLogin(caller.team_id, id);
    let sealed;
    try {
      sealed = password === undefined ? undefined : await deps.sealer.seal(loginKeyId(platform, id), password);
    } catch (err) {
      // deleted meanwhile: its key went first
      if (err instanceof KeyDestroyedError) throw loginNotFound(platform);
      throw err;
    }
    const changed = await handleLoginCommand(deps.commands, platform, id, {
      type: 'ChangeLogin',
      ...fields,
      ...(sealed !== undefined ? { password: sealed } : {}),
      reenable,
      now: deps.commands.clock().toISOString(),
    });
    if (E.isLeft(changed)) throw loginRefusal(platform, changed.left);
    ctx.body = ok(await respond(caller.team_id, id, changed.right.position));
  });

  router.delete('/:credential_id', async (ctx) => {
    const caller = callerOf(ctx);
    const id = orThrow(parseUuidParam('credential_id', ctx.params.credential_id));
    await ownLogin(caller.team_id, id);
    const deleted = await deleteLogin(deps, platform, id, deps.commands.clock().toISOString());
    if (E.isLeft(deleted)) throw loginRefusal(platform, deleted.left);
    await deps.projections.waitForPosition(deleted.right.position);
    const view = (await deps.readStore.get<LoginView>(LOGINS, id))?.doc;
    const gone = view?.deleted ?? true;
    // In use: accepted, it goes once its sessions have ended.
    ctx.status = gone ? 200 : 202;
    ctx.body = ok({
      credential_id: id,
      deleted: gone,
      active_session_count: view?.active_session_count ?? 0,
      message: gone ? 'Login deleted' : `The login takes no new session and is deleted once its ${view?.active_session_count ?? 0} session(s) end`,
    });
  });

  return router;
};
