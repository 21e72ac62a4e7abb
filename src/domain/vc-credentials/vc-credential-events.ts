import * as t from 'io-ts';
import { CreatedBy } from '../bot/bot-events';
import { eventCodec, IsoInstant, Sealed } from '../codec-helpers';

/**
 * A team's stored vc credentials (spec: `/vc_oauth_connections`, `/v2/vc-credentials`): OAuth connections
 * of vc users, through which the service fetches OBF tokens at join time, and the team's own SDK
 * credentials, which sign its bots' joins. One stream per credential.
 *
 * Every secret here (client secret, access and refresh tokens, SDK secret) is sealed with the credential's
 * own key (`key_id`), which lives outside the log (the key vault): deleting the credential destroys the key,
 * and every sealed value of its history becomes unreadable, in the log and in its backups alike.
 */

/** The access and refresh tokens of a connection, sealed, and when the access token stops working. */
export const OAuthTokens = t.type({ access_token: Sealed, refresh_token: Sealed, access_expires_at: IsoInstant });
export type OAuthTokens = t.TypeOf<typeof OAuthTokens>;

/** What the platform says about whose tokens they are (GET /v2/users/me) and what they may do. */
const oauthAccount = {
  vc_user_id: t.string,
  vc_account_id: t.string,
  scopes: t.string,
};

/** The OAuth app the customer authorised (its client secret sealed) and where its authorisation code was sent. */
const oauthApp = {
  client_id: t.string,
  client_secret: Sealed,
  redirect_uri: t.string,
};

/** A vc user authorised the team's OAuth app: the service exchanged the code and keeps the tokens. */
export const VcOAuthCredentialConnected = eventCodec('VcOAuthCredentialConnected', {
  credential_id: t.string,
  team_id: t.string,
  key_id: t.string,
  created_by: CreatedBy,
  ...oauthApp,
  ...oauthAccount,
  tokens: OAuthTokens,
  at: IsoInstant,
});

/**
 * The same vc user authorised the app again (a new authorisation code for a connection the team has):
 * new tokens, the credential active again whatever its state was.
 */
export const VcOAuthCredentialReauthorised = eventCodec('VcOAuthCredentialReauthorised', {
  credential_id: t.string,
  ...oauthApp,
  ...oauthAccount,
  tokens: OAuthTokens,
  at: IsoInstant,
});

/** The refresh-token grant gave new tokens (the platform rotates the refresh token with each use). */
export const VcOAuthTokensRefreshed = eventCodec('VcOAuthTokensRefreshed', {
  credential_id: t.string,
  tokens: OAuthTokens,
  at: IsoInstant,
});

/**
 * The platform refused the credential for good (a refresh refused: revoked, expired, app removed; or its
 * secret refused): it is `invalid` with the reason until it is authorised again. Bots using it fail with
 * VC_OBF_TOKEN_ERROR meanwhile; the team is told by webhook.
 */
export const VcCredentialInvalidated = eventCodec('VcCredentialInvalidated', {
  credential_id: t.string,
  team_id: t.string,
  reason: t.string,
  at: IsoInstant,
});

/** The team's own SDK credentials (stored once instead of passed on every request), secret sealed. */
export const VcSdkCredentialStored = eventCodec('VcSdkCredentialStored', {
  credential_id: t.string,
  team_id: t.string,
  key_id: t.string,
  created_by: CreatedBy,
  sdk_id: t.string,
  sdk_secret: Sealed,
  /** the app's name as the team calls it (the platform's banner shows the name the platform knows) */
  name: t.union([t.string, t.null]),
  at: IsoInstant,
});

/** Gone: the key of its secrets was destroyed before this was recorded. */
export const VcCredentialDeleted = eventCodec('VcCredentialDeleted', {
  credential_id: t.string,
  team_id: t.string,
  key_id: t.string,
  at: IsoInstant,
});

export const VcCredentialEvent = t.union([
  VcOAuthCredentialConnected,
  VcOAuthCredentialReauthorised,
  VcOAuthTokensRefreshed,
  VcCredentialInvalidated,
  VcSdkCredentialStored,
  VcCredentialDeleted,
]);
export type VcCredentialEvent = t.TypeOf<typeof VcCredentialEvent>;

const vcCredentialEventTypes: ReadonlySet<string> = new Set(VcCredentialEvent.types.map((codec) => codec.props.type.value));
export const isVcCredentialEvent = (event: { readonly type: string }): event is VcCredentialEvent => vcCredentialEventTypes.has(event.type);

export const vcCredentialStreamName = (credentialId: string): string => `vc-credential-${credentialId}`;
