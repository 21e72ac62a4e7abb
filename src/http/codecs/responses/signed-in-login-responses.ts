import * as t from 'io-ts';
import { CredentialState } from '../../../domain/signed-in-logins/login-platform';
import { SignInFailureKind } from '../../../domain/signed-in-logins/sign-in-failures';
import { anyObject, dateTime, decimal, integer, nullable, text, uri, uuid } from './response-kit';

/**
 * The answers of the signed-in bots' routes (signed-in-logins/responses.ts): never a password nor a private
 * key.
 */

/** What went wrong: the error code, the kind of failure the bot met, and that bot. */
export const FailureData = t.type({
  code: text({ description: 'The sign-in error code, such as `TM_LOGIN_FAILED_WRONG_PASSWORD` or `MT_LOGIN_FAILED_SAML_REJECTED`.' }),
  reason: SignInFailureKind,
  bot_id: nullable(uuid),
});

/** `state`, and why and since when it is invalid (null while active). */
const health = {
  state: CredentialState,
  failure_data: nullable(FailureData),
  last_error_at: nullable(dateTime),
  last_error_message: nullable(t.string),
};

const workspaceFields = {
  ...health,
  created_at: dateTime,
  domain: t.string,
  extra: nullable(anyObject),
  name: t.string,
  updated_at: dateTime,
  workspace_id: uuid,
};

export const TmWorkspace = t.type(workspaceFields);

/** What the customer enters in the Google domain's SSO profile (Security > Authentication > SSO with third-party IdP). */
const SsoProfile = t.type({
  sign_in_page_url: uri,
  sign_out_page_url: uri,
  entity_id: text({ description: "Our identity provider's entity id (its base URL)." }),
  certificate: text({ description: "The workspace's own X.509 signing certificate (PEM): upload it to the SSO profile." }),
  metadata_url: uri,
  acs_url: uri,
});

/** An mt workspace adds its identity provider's profile. */
export const MtWorkspace = t.type({ ...workspaceFields, sso: SsoProfile });

export const WorkspaceDeleted = t.type({ workspace_id: uuid, deleted: t.literal(true) });

export const Login = t.type({
  ...health,
  active_session_count: integer({ minimum: 0 }),
  created_at: dateTime,
  credential_id: uuid,
  email: t.string,
  email_group: nullable(t.string),
  extra: nullable(anyObject),
  last_used_at: nullable(dateTime),
  name: t.string,
  updated_at: dateTime,
  workspace_id: uuid,
});

export const LoginList = t.type({ logins: t.readonlyArray(Login) });

const deletion = { credential_id: uuid, active_session_count: integer({ minimum: 0 }), message: t.string };

export const LoginDeleted = t.type({ ...deletion, deleted: t.literal(true) });

/** Deleted once its sessions end: it takes no new one meanwhile. */
export const LoginDeletionPending = t.type({ ...deletion, deleted: t.literal(false) });

export const count = integer({ minimum: 0 });

export const Utilization = t.type({
  by_email_group: t.readonlyArray(t.type({ capacity: count, concurrent: count, email_group: t.string, logins: count })),
  concurrent_capacity: count,
  concurrent_sessions: count,
  logins_active: count,
  logins_invalid: count,
  logins_total: count,
  utilization_pct: decimal({ minimum: 0, description: '`concurrent_sessions` / `concurrent_capacity` in %, one decimal (0 without capacity).' }),
});
