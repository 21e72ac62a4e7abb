import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { WorkspacePatchBody, WorkspaceRequest } from '../codecs/login-requests';
import { MtWorkspace, TmWorkspace, WorkspaceDeleted } from '../codecs/responses/signed-in-login-responses';
import * as t from 'io-ts';
import { jsonBody, v2Answer, type RouteDocs } from '../openapi/operation-doc';

export const SIGNED_IN_TAG = 'Signed-in bots';

export const WORKSPACE_ID = '0b6f3c1a-9d2e-4f5a-8b7c-6d5e4f3a2b1c';

/** What each platform's workspace is, for the summaries. */
const WHAT: Readonly<Record<LoginPlatform, string>> = {
  tm: 'tm workspace (an organisation tenant)',
  mt: 'mt workspace (a Google Workspace domain signed in through our SAML identity provider)',
};

const notFound = { 404: ['FST_ERR_WORKSPACE_NOT_FOUND'] };

/** The routes of workspaces-router.ts for one platform (`/v2/tm-workspaces`, `/v2/mt-workspaces`). */
export const workspacesRouteDocs = (platform: LoginPlatform): RouteDocs => {
  const base = `/v2/${platform}-workspaces`;
  const Workspace = platform === 'mt' ? MtWorkspace : TmWorkspace;
  const name = platform === 'mt' ? 'MtWorkspace' : 'TmWorkspace';
  const ssoNote =
    platform === 'mt'
      ? ' The answer\'s `sso` is what to enter in the domain\'s SSO profile (Google Admin console: Security > Authentication > SSO with third-party IdP): ' +
        'the sign-in and sign-out page URLs and the workspace\'s own signing certificate, made by the service (its private key is sealed and never shown).'
      : '';
  return {
    [`POST ${base}`]: {
      operationId: `create${platform === 'mt' ? 'Mt' : 'Tm'}Workspace`,
      tag: SIGNED_IN_TAG,
      summary: `Create a ${WHAT[platform]}`,
      description: `Logins belong to a workspace: create it first.${ssoNote}`,
      body: jsonBody(`${name}Request`, WorkspaceRequest, { acme: { summary: 'A domain', value: { domain: 'acme.example', name: 'Acme' } } }),
      responses: { 201: v2Answer('The workspace.', Workspace, name) },
    },
    [`GET ${base}`]: {
      operationId: `list${platform === 'mt' ? 'Mt' : 'Tm'}Workspaces`,
      tag: SIGNED_IN_TAG,
      summary: `The team's ${platform} workspaces, oldest first`,
      responses: { 200: v2Answer('Every workspace.', t.type({ workspaces: t.readonlyArray(Workspace) })) },
    },
    [`GET ${base}/{workspace_id}`]: {
      operationId: `get${platform === 'mt' ? 'Mt' : 'Tm'}Workspace`,
      tag: SIGNED_IN_TAG,
      summary: `A ${platform} workspace`,
      responses: { 200: v2Answer('The workspace; `invalid`, with why and since when, once the platform rejected it.', Workspace, name) },
      errors: notFound,
    },
    [`PATCH ${base}/{workspace_id}`]: {
      operationId: `update${platform === 'mt' ? 'Mt' : 'Tm'}Workspace`,
      tag: SIGNED_IN_TAG,
      summary: `Rename a ${platform} workspace, change its extra, or re-enable it`,
      description: '`state: "active"` re-enables a workspace that turned `invalid` (its logins are used again).',
      body: jsonBody(`${name}Patch`, WorkspacePatchBody, { reenable: { summary: 'Re-enable it', value: { state: 'active' } } }),
      responses: { 200: v2Answer('The workspace as changed.', Workspace, name) },
      errors: notFound,
    },
    [`DELETE ${base}/{workspace_id}`]: {
      operationId: `delete${platform === 'mt' ? 'Mt' : 'Tm'}Workspace`,
      tag: SIGNED_IN_TAG,
      summary: `Delete a ${platform} workspace without logins`,
      description: platform === 'mt' ? 'Its signing key is destroyed: the SSO profile pointing at it stops working.' : undefined,
      responses: { 200: v2Answer('Deleted.', WorkspaceDeleted) },
      errors: { ...notFound, 409: ['FST_ERR_WORKSPACE_IN_USE'] },
    },
  };
};
