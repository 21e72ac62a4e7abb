import { LegacyOk } from '../codecs/responses/legacy-bot-responses';
import { LegacyVcOAuthConnection, LegacyVcOAuthConnectionList } from '../codecs/responses/vc-credential-responses';
import { jsonBody, legacyAnswer, type RouteDocs } from '../openapi/operation-doc';
import { LegacyConnect } from './vc-credential-requests';

const tag = 'Legacy VC OAuth connections';
const notFound = { 404: ['FST_ERR_VC_CREDENTIAL_NOT_FOUND'] };

/** The routes of legacy-vc-oauth-router.ts. */
export const legacyVcOAuthRouteDocs: RouteDocs = {
  'POST /vc_oauth_connections': {
    operationId: 'legacyConnectVcOAuth',
    tag,
    summary: "Connect a vc user's account (managed OAuth, step 2)",
    description:
      "Exchanges the authorization code the vc platform gave your redirect URI, with your OAuth app's client id and secret, and keeps the " +
      "user's tokens sealed; the service refreshes them and fetches the user's OBF tokens for bots that name `vc_obf_token_user_id`. The same " +
      'vc user authorising again re-authorises the same connection. The client secret and the code are write-only.',
    body: jsonBody('VcOAuthConnectionRequest', LegacyConnect, {
      code: {
        summary: 'The code from the redirect',
        value: { authorization_code: 'obBEe8ewaL_KdyNjnimT4KPd8KKdQt9FQ', redirect_uri: 'https://app.example.com/vc/callback', vc_client_id: 'acme-oauth-app', vc_client_secret: '…' },
      },
    }),
    responses: { 200: legacyAnswer('The connection (no token, no secret).', LegacyVcOAuthConnection, 'LegacyVcOAuthConnection') },
    errors: { 400: ['FST_ERR_VC_OAUTH_REFUSED'], 502: ['FST_ERR_VC_PLATFORM_UNAVAILABLE'] },
  },
  'GET /vc_oauth_connections': {
    operationId: 'legacyListVcOAuthConnections',
    tag,
    summary: "The team's vc OAuth connections, oldest first",
    responses: { 200: legacyAnswer('Every connection.', LegacyVcOAuthConnectionList) },
  },
  'GET /vc_oauth_connections/{uuid}': {
    operationId: 'legacyGetVcOAuthConnection',
    tag,
    summary: 'A vc OAuth connection',
    responses: { 200: legacyAnswer('The connection; `invalid` once the platform refused its tokens.', LegacyVcOAuthConnection, 'LegacyVcOAuthConnection') },
    errors: notFound,
  },
  'DELETE /vc_oauth_connections/{uuid}': {
    operationId: 'legacyDeleteVcOAuthConnection',
    tag,
    summary: 'Remove a vc OAuth connection and its tokens',
    description: 'The stored tokens are destroyed with their key; bots that name this user fail to join afterwards (`VC_OBF_TOKEN_ERROR`).',
    responses: { 200: legacyAnswer('Removed.', LegacyOk) },
    errors: notFound,
  },
};
