import Router from '@koa/router';
import { orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { connectOAuth, credentialsOfTeam, findCredentialOfCaller, removeCredential, credentialNotFound, type VcCredentialApiDeps } from './vc-credential-operations';
import { decodeLegacyConnectRequest } from './vc-credential-requests';
import { toLegacyConnection } from './vc-credential-responses';

/**
 * The spec's legacy managed OAuth (root paths, no envelope): `POST /vc_oauth_connections` exchanges the
 * code and answers the connection record (the same vc user again re-authorises the same connection),
 * `GET` lists the team's connections (an array), `GET`/`DELETE /vc_oauth_connections/:uuid` (DELETE
 * removes the stored tokens and answers `{ok: true}`). Full Access only.
 */
export const legacyVcOAuthRouter = (deps: VcCredentialApiDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/vc_oauth_connections' });
  const uuidParam = (ctx: AppContext & { params: Record<string, string | undefined> }) => orThrow(parseUuidParam('uuid', ctx.params.uuid));

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeLegacyConnectRequest(await readJsonBody(ctx, { required: true })));
    const { view } = await connectOAuth(deps, caller, ctx.get('x-service-api-key'), request, {
      code: 'body/authorization_code',
      client: 'body/vc_client_id or body/vc_client_secret',
    });
    ctx.body = toLegacyConnection(view);
  });

  router.get('/', async (ctx) => {
    ctx.body = (await credentialsOfTeam(deps.readStore, callerOf(ctx).team_id, 'oauth')).map(toLegacyConnection);
  });

  router.get('/:uuid', async (ctx) => {
    const view = await findCredentialOfCaller(deps.readStore, callerOf(ctx), uuidParam(ctx));
    if (view.type !== 'oauth') throw credentialNotFound();
    ctx.body = toLegacyConnection(view);
  });

  router.delete('/:uuid', async (ctx) => {
    await removeCredential(deps, callerOf(ctx), uuidParam(ctx), 'oauth');
    ctx.body = { ok: true };
  });

  return router;
};
