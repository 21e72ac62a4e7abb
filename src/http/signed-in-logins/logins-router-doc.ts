import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { LoginPatchBody, MtLoginRequest, TmLoginRequest } from '../codecs/login-requests';
import { Login, LoginDeleted, LoginDeletionPending, LoginList, Utilization } from '../codecs/responses/signed-in-login-responses';
import { jsonBody, v2Answer, type RouteDocs } from '../openapi/operation-doc';
import { SIGNED_IN_TAG, WORKSPACE_ID } from './workspaces-router-doc';

const notFound = { 404: ['FST_ERR_LOGIN_NOT_FOUND'] };

const HOW =
  'A bot signs in with a login when its `tm_config` / `mt_config` names it (`credential_id`) or its pool (`email_group`); either absent, any ' +
  'login of the team on that platform. Each login holds at most 2 sessions at once; the least-loaded login of the pool is taken.';

/** The routes of logins-router.ts for one platform (`/v2/tm-logins`, `/v2/mt-logins`). */
export const loginsRouteDocs = (platform: LoginPlatform): RouteDocs => {
  const base = `/v2/${platform}-logins`;
  const Pf = platform === 'mt' ? 'Mt' : 'Tm';
  const tm = platform === 'tm';
  const login = { email: 'notes@acme.example', name: 'Notes 1', email_group: 'notes@acme.example', workspace_id: WORKSPACE_ID };
  return {
    [`POST ${base}`]: {
      operationId: `create${Pf}Login`,
      tag: SIGNED_IN_TAG,
      summary: tm ? 'Store an organisation account for tm bots to sign in with' : 'Name a Google Workspace account for mt bots to sign in as',
      description: tm
        ? `${HOW} The password is write-only: sealed with the login's own key, opened only for a bot of the team during its run, never returned.`
        : `${HOW} No password: our SAML identity provider (the workspace's \`sso\`) signs the bot in as this account, which must be of the workspace's domain.`,
      body: jsonBody(`${Pf}LoginRequest`, tm ? TmLoginRequest : MtLoginRequest, {
        pooled: { summary: 'A login of a pool', value: tm ? { ...login, password: '…' } : login },
      }),
      responses: { 201: v2Answer('The login (never its password).', Login, 'Login') },
      errors: { 404: ['FST_ERR_WORKSPACE_NOT_FOUND'] },
    },
    [`GET ${base}`]: {
      operationId: `list${Pf}Logins`,
      tag: SIGNED_IN_TAG,
      summary: `The team's ${platform} logins, oldest first`,
      responses: { 200: v2Answer('Every login.', LoginList) },
    },
    [`GET ${base}/utilization`]: {
      operationId: `get${Pf}LoginUtilization`,
      tag: SIGNED_IN_TAG,
      summary: `How full the team's ${platform} logins are`,
      description:
        '`concurrent_capacity` counts the logins that can take sessions (active, of an active workspace, not being deleted); `concurrent_sessions` ' +
        'every session held; `by_email_group` each pool (logins without a group are in the totals only), sorted by group.',
      responses: { 200: v2Answer('The pools and their headroom.', Utilization, 'LoginUtilization') },
    },
    [`GET ${base}/{credential_id}`]: {
      operationId: `get${Pf}Login`,
      tag: SIGNED_IN_TAG,
      summary: `A ${platform} login`,
      responses: { 200: v2Answer('The login; `invalid`, with why and since when, once the platform refused it.', Login, 'Login') },
      errors: notFound,
    },
    [`PATCH ${base}/{credential_id}`]: {
      operationId: `update${Pf}Login`,
      tag: SIGNED_IN_TAG,
      summary: tm ? 'Rename a tm login, move it to another pool, change its password or extra, or re-enable it' : 'Rename an mt login, move it to another pool, change its extra, or re-enable it',
      description: '`state: "active"` re-enables a login that turned `invalid`. A login being deleted cannot be changed (409).',
      body: jsonBody(`${Pf}LoginPatch`, LoginPatchBody(platform), {
        reenable: { summary: 'Re-enable it', value: { state: 'active' } },
        pool: { summary: 'Another pool', value: { email_group: 'sales-notes@acme.example' } },
      }),
      responses: { 200: v2Answer('The login as changed.', Login, 'Login') },
      errors: { ...notFound, 409: ['FST_ERR_LOGIN_DELETING'] },
    },
    [`DELETE ${base}/{credential_id}`]: {
      operationId: `delete${Pf}Login`,
      tag: SIGNED_IN_TAG,
      summary: `Delete a ${platform} login`,
      description: `Its key is destroyed at once${tm ? ' (its password can no longer be read anywhere)' : ''}. In use, it takes no new session and goes once its sessions end (202).`,
      responses: {
        200: v2Answer('Deleted.', LoginDeleted),
        202: v2Answer('In use: deleted once its sessions end.', LoginDeletionPending),
      },
      errors: notFound,
    },
  };
};
