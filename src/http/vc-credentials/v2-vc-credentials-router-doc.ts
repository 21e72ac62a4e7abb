import { VcCredential, VcCredentialDeleted, VcCredentialList } from '../codecs/responses/vc-credential-responses';
import { jsonBody, v2Answer, type RouteDocs } from '../openapi/operation-doc';
import { V2CredentialRequest } from './vc-credential-requests';

const tag = 'VC credentials';
const notFound = { 404: ['FST_ERR_VC_CREDENTIAL_NOT_FOUND'] };

/** The routes of v2-vc-credentials-router.ts. */
export const v2VcCredentialsRouteDocs: RouteDocs = {
  'POST /v2/vc-credentials': {
    operationId: 'createVcCredential',
    tag,
    summary: "Store a vc user's OAuth connection or the team's SDK credentials",
    description:
      '`type: "oauth"`: exchanges the authorization code with your OAuth app (managed OAuth, step 2) and keeps the tokens sealed; bots then name ' +
      'it in `vc_config.credential_id` or `credential_user_id`. The same vc user again re-authorises it (200, same id, `active`). ' +
      '`type: "sdk"`: the team\'s own Meeting SDK credentials, which sign every vc join of the team; storing them again replaces them (200). ' +
      'Secrets and codes are write-only.',
    body: jsonBody('VcCredentialRequest', V2CredentialRequest, {
      oauth: {
        summary: "A vc user's authorization code",
        value: { type: 'oauth', authorization_code: 'obBEe8ewaL_KdyNjnimT4KPd8KKdQt9FQ', redirect_uri: 'https://app.example.com/vc/callback', client_id: 'acme-oauth-app', client_secret: '…' },
      },
      sdk: { summary: "The team's SDK credentials", value: { type: 'sdk', sdk_id: 'acme-sdk-key', sdk_secret: '…', name: 'Acme Notes' } },
    }),
    responses: {
      201: v2Answer('Stored (no secret, no token).', VcCredential, 'VcCredential'),
      200: v2Answer('The same vc user re-authorised, or the SDK credentials replaced.', VcCredential, 'VcCredential'),
    },
    errors: { 400: ['FST_ERR_VC_OAUTH_REFUSED'], 502: ['FST_ERR_VC_PLATFORM_UNAVAILABLE'] },
  },
  'GET /v2/vc-credentials': {
    operationId: 'listVcCredentials',
    tag,
    summary: "The team's vc credentials, oldest first",
    responses: { 200: v2Answer('Every credential (never a secret).', VcCredentialList) },
  },
  'GET /v2/vc-credentials/{credential_id}': {
    operationId: 'getVcCredential',
    tag,
    summary: 'A vc credential',
    responses: { 200: v2Answer('The credential; `invalid`, with why and since when, once the platform refused it.', VcCredential, 'VcCredential') },
    errors: notFound,
  },
  'DELETE /v2/vc-credentials/{credential_id}': {
    operationId: 'deleteVcCredential',
    tag,
    summary: 'Delete a vc credential and its secrets',
    description: 'The secrets are destroyed with their key; bots that name it fail to join afterwards (`VC_OBF_TOKEN_ERROR`).',
    responses: { 200: v2Answer('Deleted.', VcCredentialDeleted) },
    errors: notFound,
  },
};
