import Router from '@koa/router';
import { orThrow } from '../api-error';
import { callerOf, type AppContext, type AppState } from '../app-context';
import { parseUuidParam } from '../codecs/path-uuid';
import { readJsonBody } from '../read-json-body';
import { connectOAuth, credentialsOfTeam, findCredentialOfCaller, removeCredential, storeSdk, type VcCredentialApiDeps } from './vc-credential-operations';
import { decodeV2CredentialRequest } from './vc-credential-requests';
import { toV2Credential } from './vc-credential-responses';

const ok = (data: unknown) => ({ success: true, data });

/**
 * `/v2/vc-credentials` (Full Access): `POST` `{type: "oauth", authorization_code, redirect_uri, client_id,
 * client_secret}` connects a vc user (201; the same user again re-authorises: 200, same id, `active`), or
 * `{type: "sdk", sdk_id, sdk_secret, name?}` stores the team's SDK credentials (201; again: replaced, 200);
 * `GET` lists them, `GET /{id}` reads one with its `state`, `DELETE /{id}` deletes it and its secrets.
 */
export const v2VcCredentialsRouter = (deps: VcCredentialApiDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/vc-credentials' });
  const idParam = (ctx: AppContext & { params: Record<string, string | undefined> }) => orThrow(parseUuidParam('credential_id', ctx.params.credential_id));

  router.post('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeV2CredentialRequest(await readJsonBody(ctx, { required: true })));
    const apiKey = ctx.get('x-service-api-key');
    const { view, created } =
      request.type === 'oauth'
        ? await connectOAuth(deps, caller, apiKey, request, { code: 'body/authorization_code', client: 'body/client_id or body/client_secret' })
        : await storeSdk(deps, caller, apiKey, request);
    ctx.status = created ? 201 : 200;
    ctx.body = ok(toV2Credential(view));
  });

  router.get('/', async (ctx) => {
    ctx.body = ok({ credentials: (await credentialsOfTeam(deps.readStore, callerOf(ctx).team_id)).map(toV2Credential) });
  });

  router.get('/:credential_id', async (ctx) => {
    ctx.body = ok(toV2Credential(await findCredentialOfCaller(deps.readStore, callerOf(ctx), idParam(ctx))));
  });

  router.delete('/:credential_id', async (ctx) => {
    const view = await removeCredential(deps, callerOf(ctx), idParam(ctx));
    ctx.body = ok({ credential_id: view.id, deleted: true, message: 'The credential and its stored secrets were deleted' });
  });

  return router;
};
