import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { validationError, type ApiError } from '../api-error';
import { decodeWith, isPlainObject, nullable, oneOf, str, strictObject } from '../codecs/codec-kit';

/** Lengths: a client id and an SDK key are short; secrets and codes get room for any form the platform uses. */
const CLIENT_ID = str(1, 255);
const SECRET = str(1, 1024);
const CODE = str(1, 2048);
/** the redirect URI must match the one the user was sent with, byte for byte: only its length is checked */
const REDIRECT_URI = str(1, 2048);

/** The spec's legacy request (`POST /vc_oauth_connections`), every field required. */
export const LegacyConnect = strictObject('VcOAuthConnectionRequest', {
  authorization_code: CODE,
  redirect_uri: REDIRECT_URI,
  vc_client_id: CLIENT_ID,
  vc_client_secret: SECRET,
});

const OAuthCredentialRequest = strictObject('VcOAuthCredentialRequest', {
  type: oneOf(['oauth'] as const),
  authorization_code: CODE,
  redirect_uri: REDIRECT_URI,
  client_id: CLIENT_ID,
  client_secret: SECRET,
});

const SdkCredentialRequest = strictObject('VcSdkCredentialRequest', {
  type: oneOf(['sdk'] as const),
  sdk_id: CLIENT_ID,
  sdk_secret: SECRET,
  name: nullable(str(1, 100)),
});

/** What `POST /v2/vc-credentials` takes, as the OpenAPI document states it: one of the two, by `type`. */
export const V2CredentialRequest = t.union([OAuthCredentialRequest, SdkCredentialRequest]);

export interface OAuthConnect {
  readonly type: 'oauth';
  readonly authorization_code: string;
  readonly redirect_uri: string;
  readonly client_id: string;
  readonly client_secret: string;
}

export interface SdkStore {
  readonly type: 'sdk';
  readonly sdk_id: string;
  readonly sdk_secret: string;
  readonly name: string | null;
}

export const decodeLegacyConnectRequest = (body: unknown): E.Either<ApiError, OAuthConnect> =>
  E.map((r: { authorization_code: string; redirect_uri: string; vc_client_id: string; vc_client_secret: string }): OAuthConnect => ({
    type: 'oauth',
    authorization_code: r.authorization_code,
    redirect_uri: r.redirect_uri,
    client_id: r.vc_client_id,
    client_secret: r.vc_client_secret,
  }))(decodeWith(LegacyConnect, 'body', body));

/**
 * `POST /v2/vc-credentials`: `type` says which: `oauth` (a vc user's authorisation code, exchanged with
 * the team's OAuth app) or `sdk` (the team's own SDK credentials, stored once for every bot).
 */
export const decodeV2CredentialRequest = (body: unknown): E.Either<ApiError, OAuthConnect | SdkStore> => {
  if (!isPlainObject(body)) return E.left(validationError('body', 'must be object'));
  if (body.type === 'oauth') return E.map((r: Omit<OAuthConnect, 'type'>): OAuthConnect => ({ ...r, type: 'oauth' }))(decodeWith(OAuthCredentialRequest, 'body', body));
  if (body.type === 'sdk') return E.map((r: Omit<SdkStore, 'type'>): SdkStore => ({ ...r, type: 'sdk' }))(decodeWith(SdkCredentialRequest, 'body', body));
  return E.left(validationError('body/type', body.type === undefined ? "must have required property 'type'" : 'must be equal to one of the allowed values: oauth, sdk'));
};
