import type { VcCredentialView } from '../../projections/vc-credential-view';

/** The legacy API's times: ISO 8601 without a zone (spec), in UTC like every time of the service. */
export const withoutZone = (iso: string): string => iso.replace(/Z$/, '');

/** The spec's legacy connection record; `state` is `connected`, or `invalid` once the platform refused it. */
export const toLegacyConnection = (view: VcCredentialView) => ({
  uuid: view.id,
  vc_user_id: view.vc_user_id,
  vc_account_id: view.vc_account_id,
  state: view.state === 'active' ? 'connected' : 'invalid',
  scopes: view.scopes,
  created_at: withoutZone(view.created_at),
  updated_at: withoutZone(view.updated_at),
});

/**
 * A v2 credential: its `state` (`active` or `invalid`, with why since when, as tm logins show it), never a
 * secret. With the official client's fields (`GET /v2/vc-credentials/{id}` is in the spec, and the client
 * reads it as its type): `credential_type` (`app`: the team's own SDK credentials, `user`: a vc user's OAuth
 * connection), `name` always a string (the name given, else what identifies the credential: the app's SDK
 * key, or the connected user's vc id), and the user's fields null for an app.
 */
export const toV2Credential = (view: VcCredentialView) => ({
  credential_id: view.id,
  type: view.type,
  credential_type: view.type === 'sdk' ? 'app' : 'user',
  name: view.name ?? (view.type === 'sdk' ? view.sdk_id : view.vc_user_id) ?? '',
  state: view.state,
  vc_user_id: view.vc_user_id,
  vc_account_id: view.vc_account_id,
  scopes: view.scopes,
  ...(view.type === 'oauth' ? { client_id: view.client_id, last_refreshed_at: view.last_refreshed_at } : { sdk_id: view.sdk_id }),
  last_error_at: view.invalidated_at,
  last_error_message: view.invalid_reason,
  created_at: view.created_at,
  updated_at: view.updated_at,
});
