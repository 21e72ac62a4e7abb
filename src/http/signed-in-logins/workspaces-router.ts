import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import { makeSigningKeyPair } from '../../adapters/saml/signing-key-pair';
import { deleteWorkspace, workspaceKeyId } from '../../commands/signed-in-logins/login-secrets';
import { handleWorkspaceCommand } from '../../commands/signed-in-logins/login-streams';
import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { LOGINS } from '../../projections/signed-in-logins/login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from '../../projections/signed-in-logins/workspace-view';
import { orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeWith } from '../codecs/codec-kit';
import { decodeWorkspacePatch, WorkspaceRequest } from '../codecs/login-requests';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { loginRefusal, nothingToChange, ok, workspaceNotFound, type SignedInLoginRouterDeps } from './deps';
import { workspaceResponse } from './responses';

/** The spec leaves the default name to "the platform's default label": Entra ID's for a tenant, Google's product name. */
const DEFAULT_WORKSPACE_NAME: Readonly<Record<LoginPlatform, string>> = { tm: 'Default Directory', mt: 'Google Workspace' };

/** The team's workspace of this platform that is not deleted, or 404. */
export const ownWorkspace = async (deps: SignedInLoginRouterDeps, platform: LoginPlatform, teamId: string, workspaceId: string): Promise<WorkspaceView> => {
  const view = (await deps.readStore.get<WorkspaceView>(LOGIN_WORKSPACES, workspaceId))?.doc;
  if (!view || view.team_id !== teamId || view.platform !== platform || view.deleted) throw workspaceNotFound(platform);
  return view;
};

/** `/v2/tm-workspaces` and `/v2/mt-workspaces`: create, list, read, PATCH (rename, extra, re-enable), delete. */
export const workspacesRouter = (deps: SignedInLoginRouterDeps, platform: LoginPlatform): Router<AppState> => {
  const router = new Router<AppState>({ prefix: `/v2/${platform}-workspaces` });
  const respond = async (teamId: string, workspaceId: string, position: bigint | null) => {
    await deps.projections.waitForPosition(position);
    return workspaceResponse(await ownWorkspace(deps, platform, teamId, workspaceId), deps.publicUrl());
  };

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeWith(WorkspaceRequest, 'body', await readJsonBody(ctx)));
    const workspaceId = deps.commands.newId();
    const now = deps.commands.clock();
    // mt: our identity provider's key pair for this workspace; the private key is sealed with the workspace's own key before it is stored
    const keys = platform === 'mt' ? await makeSigningKeyPair(`${request.domain} meeting bots SSO`, now) : null;
    const created = await handleWorkspaceCommand(deps.commands, platform, workspaceId, {
      type: 'CreateWorkspace',
      workspace_id: workspaceId,
      team_id: caller.team_id,
      platform,
      domain: request.domain,
      name: request.name ?? DEFAULT_WORKSPACE_NAME[platform],
      extra: request.extra,
      signing_key: keys && { certificate_pem: keys.certificatePem, private_key: await deps.sealer.seal(workspaceKeyId(platform, workspaceId), keys.privateKeyPem) },
      created_by: { key_id: caller.key_id, api_key: deps.secretBox.seal(ctx.get('x-service-api-key')) },
      now: now.toISOString(),
    });
    if (E.isLeft(created)) throw loginRefusal(platform, created.left);
    ctx.status = 201;
    ctx.body = ok(await respond(caller.team_id, workspaceId, created.right.position));
  });

  router.get('/', async (ctx) => {
    const caller = callerOf(ctx);
    const views = await deps.readStore.find<WorkspaceView>(LOGIN_WORKSPACES, {
      where: { team_id: caller.team_id, platform, deleted: false },
      orderBy: [{ field: 'created_at', direction: 'asc' }],
    });
    ctx.body = ok({ workspaces: views.map((v) => workspaceResponse(v, deps.publicUrl())) });
  });

  router.get('/:workspace_id', async (ctx) => {
    const id = orThrow(parseUuidParam('workspace_id', ctx.params.workspace_id));
    ctx.body = ok(workspaceResponse(await ownWorkspace(deps, platform, callerOf(ctx).team_id, id), deps.publicUrl()));
  });

  router.patch('/:workspace_id', async (ctx) => {
    const caller = callerOf(ctx);
    const id = orThrow(parseUuidParam('workspace_id', ctx.params.workspace_id));
    const patch = orThrow(decodeWorkspacePatch(await readJsonBody(ctx)));
    if (patch.name === undefined && patch.extra === undefined && !patch.reenable) throw nothingToChange(['name', 'extra', 'state']);
    await ownWorkspace(deps, platform, caller.team_id, id);
    const changed = await handleWorkspaceCommand(deps.commands, platform, id, { type: 'ChangeWorkspace', ...patch, now: deps.commands.clock().toISOString() });
    if (E.isLeft(changed)) throw loginRefusal(platform, changed.left);
    ctx.body = ok(await respond(caller.team_id, id, changed.right.position));
  });

  router.delete('/:workspace_id', async (ctx) => {
    const caller = callerOf(ctx);
    const id = orThrow(parseUuidParam('workspace_id', ctx.params.workspace_id));
    const view = await ownWorkspace(deps, platform, caller.team_id, id);
    const logins = await deps.readStore.count(LOGINS, { team_id: caller.team_id, workspace_id: id, deleted: false });
    const deleted = await deleteWorkspace(deps, platform, id, logins, deps.commands.clock().toISOString());
    if (E.isLeft(deleted)) throw loginRefusal(platform, deleted.left);
    await deps.projections.waitForPosition(deleted.right.position);
    ctx.body = ok({ workspace_id: view.workspace_id, deleted: true });
  });

  return router;
};
