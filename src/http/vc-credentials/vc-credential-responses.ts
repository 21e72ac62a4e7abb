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

/** A v2 credential: its `state` (`active` or `invalid`, with why since when, as tm logins show it), never a secret. */
export const toV2Credential = (view: VcCredentialView) => ({
  credential_id: view.id,
  type: view.type,
  state: view.state,
  ...(view.type === 'oauth'
    ? { vc_user_id: view.vc_user_id, vc_account_id: view.vc_account_id, client_id: view.client_id, scopes: view.scopes, last_refreshed_at: view.last_refreshed_at }
    : { sdk_id: view.sdk_id, name: view.name }),
  last_error_at: view.invalidated_at,
  last_error_message: view.invalid_reason,
  created_at: view.created_at,
  updated_at: view.updated_at,
});
