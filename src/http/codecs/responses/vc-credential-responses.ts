import * as t from 'io-ts';
import { dateTime, nullable, text, uuid } from './response-kit';

/** The legacy API's times: ISO 8601 in UTC without a zone (the spec's `2024-01-15T10:30:00`). */
const zonelessTime = text({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?$', description: 'ISO 8601 without a zone, in UTC.' });

/** The spec's legacy connection record: `connected`, or `invalid` once the platform refused its tokens. */
export const LegacyVcOAuthConnection = t.type({
  uuid,
  vc_user_id: t.string,
  vc_account_id: t.string,
  state: t.keyof({ connected: null, invalid: null }),
  scopes: t.string,
  created_at: zonelessTime,
  updated_at: zonelessTime,
});

export const LegacyVcOAuthConnectionList = t.readonlyArray(LegacyVcOAuthConnection);

const State = t.keyof({ active: null, invalid: null });

/** What both kinds show: the state, and why and since when the platform refused it (null while active). */
const common = {
  credential_id: uuid,
  state: State,
  last_error_at: nullable(dateTime),
  last_error_message: nullable(t.string),
  created_at: dateTime,
  updated_at: dateTime,
};

/** `name`: the name given, else what identifies the credential (the SDK key, or the connected user's vc id). */
const Name = text({ description: "The name given, else the SDK key (`sdk`) or the connected user's vc id (`oauth`)." });

/** A vc user's OAuth connection (`credential_type: user`): whose tokens, with which OAuth app; never a secret or a token. */
const OAuthCredential = t.type({
  ...common,
  type: t.literal('oauth'),
  credential_type: t.literal('user'),
  name: Name,
  vc_user_id: t.string,
  vc_account_id: t.string,
  client_id: t.string,
  scopes: t.string,
  last_refreshed_at: nullable(dateTime),
});

/** The team's SDK credentials (`credential_type: app`): the key and the team's name for them; never the secret; no user. */
const SdkCredential = t.type({
  ...common,
  type: t.literal('sdk'),
  credential_type: t.literal('app'),
  name: Name,
  vc_user_id: t.null,
  vc_account_id: t.null,
  scopes: t.null,
  sdk_id: t.string,
});

export const VcCredential = t.union([OAuthCredential, SdkCredential]);

export const VcCredentialList = t.type({ credentials: t.readonlyArray(VcCredential) });

export const VcCredentialDeleted = t.type({ credential_id: uuid, deleted: t.literal(true), message: t.string });
