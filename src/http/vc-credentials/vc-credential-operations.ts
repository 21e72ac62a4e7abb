import * as E from 'fp-ts/Either';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { ReadStore } from '../../adapters/read-store/port';
import type { VcPlatformFailure } from '../../adapters/vc-platform/port';
import { connectOAuthCredential } from '../../commands/vc-credentials/connect-oauth-credential';
import { deleteVcCredential } from '../../commands/vc-credentials/delete-vc-credential';
import { storeSdkCredential } from '../../commands/vc-credentials/store-sdk-credential';
import type { VcCredentialDeps, VcCredentialResult } from '../../commands/vc-credentials/vc-credential-store';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { VC_CREDENTIALS, type VcCredentialView } from '../../projections/vc-credential-view';
import { ApiError, notFound, validationError } from '../api-error';
import type { Caller } from '../app-context';
import type { OAuthConnect, SdkStore } from './vc-credential-requests';

export interface VcCredentialApiDeps {
  readonly credentials: VcCredentialDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly secretBox: SecretBox;
}

/** How the fields of a connect request are called in this API generation (refusals name them). */
export interface ConnectFieldNames {
  readonly code: string;
  readonly client: string;
}

export const credentialNotFound = () => notFound('FST_ERR_VC_CREDENTIAL_NOT_FOUND', 'vc credential not found', 'No vc credential with this id exists for this team');

/** A refused code names the field the platform refused; a platform out of reach is a 502, and nothing is stored. */
const platformRefusal = (failure: VcPlatformFailure, names: ConnectFieldNames): ApiError => {
  if (!failure.refused) {
    return new ApiError({ status: 502, code: 'FST_ERR_VC_PLATFORM_UNAVAILABLE', message: 'The vc platform could not complete the authorization', details: failure.reason });
  }
  const field = /invalid_client/.test(failure.reason) ? names.client : names.code;
  const sentence = `${field} was refused by the vc platform: ${failure.reason}`;
  return new ApiError({ status: 400, code: 'FST_ERR_VC_OAUTH_REFUSED', message: sentence, details: sentence });
};

const recorded = async (deps: VcCredentialApiDeps, caller: Caller, result: VcCredentialResult): Promise<{ view: VcCredentialView; created: boolean }> => {
  if (E.isLeft(result)) throw credentialNotFound();
  await deps.projections.waitForPosition(result.right.position);
  const current = result.right.state.current!;
  // a first connection (or first SDK credentials) is created now; the same user again re-authorises it
  return { view: await findCredentialOfCaller(deps.readStore, caller, current.credential_id), created: current.created_at === current.updated_at };
};

/** The spec's managed OAuth, step 2: the code exchanged, the connection kept (or re-authorised for the same vc user). */
export const connectOAuth = async (deps: VcCredentialApiDeps, caller: Caller, apiKey: string, request: OAuthConnect, names: ConnectFieldNames) => {
  const outcome = await connectOAuthCredential(deps.credentials, {
    team_id: caller.team_id,
    created_by: { key_id: caller.key_id, api_key: deps.secretBox.seal(apiKey) },
    client_id: request.client_id,
    client_secret: request.client_secret,
    authorization_code: request.authorization_code,
    redirect_uri: request.redirect_uri,
  });
  if (E.isLeft(outcome)) throw platformRefusal(outcome.left.failure, names);
  return recorded(deps, caller, outcome.right);
};

export const storeSdk = async (deps: VcCredentialApiDeps, caller: Caller, apiKey: string, request: SdkStore) =>
  recorded(
    deps,
    caller,
    await storeSdkCredential(deps.credentials, {
      team_id: caller.team_id,
      created_by: { key_id: caller.key_id, api_key: deps.secretBox.seal(apiKey) },
      sdk_id: request.sdk_id,
      sdk_secret: request.sdk_secret,
      name: request.name,
    }),
  );

export const credentialsOfTeam = async (readStore: ReadStore, teamId: string, type?: VcCredentialView['type']): Promise<readonly VcCredentialView[]> =>
  readStore.find<VcCredentialView>(VC_CREDENTIALS, {
    where: { team_id: teamId, deleted: false, ...(type ? { type } : {}) },
    orderBy: [{ field: 'created_at', direction: 'asc' }],
  });

/** Another team's credential is not found, exactly as one that never existed. */
export const findCredentialOfCaller = async (readStore: ReadStore, caller: Caller, credentialId: string): Promise<VcCredentialView> => {
  const view = (await readStore.get<VcCredentialView>(VC_CREDENTIALS, credentialId))?.doc;
  if (!view || view.deleted || view.team_id !== caller.team_id) throw credentialNotFound();
  return view;
};

export const removeCredential = async (deps: VcCredentialApiDeps, caller: Caller, credentialId: string, type?: VcCredentialView['type']): Promise<VcCredentialView> => {
  const view = await findCredentialOfCaller(deps.readStore, caller, credentialId);
  if (type && view.type !== type) throw credentialNotFound();
  const result = await deleteVcCredential(deps.credentials, caller.team_id, credentialId);
  if (E.isLeft(result)) throw credentialNotFound();
  await deps.projections.waitForPosition(result.right.position);
  return view;
};

/** `credential_user_id` (v2) and `vc_obf_token_user_id` (legacy) at creation: the team must have that user's connection. */
export const checkConnectionOfUser = async (readStore: ReadStore, teamId: string, vcUserId: string, field: string): Promise<void> => {
  const found = await readStore.find<VcCredentialView>(VC_CREDENTIALS, { where: { team_id: teamId, deleted: false, type: 'oauth', vc_user_id: vcUserId }, limit: 1 });
  if (found.length === 0) throw validationError(field, 'names no vc OAuth connection of this team (POST /vc_oauth_connections or /v2/vc-credentials makes one)');
};

/** `credential_id` at creation: an OAuth credential of the team (SDK credentials sign every join of the team by themselves). */
export const checkOAuthCredential = async (readStore: ReadStore, teamId: string, credentialId: string, field: string): Promise<void> => {
  const view = (await readStore.get<VcCredentialView>(VC_CREDENTIALS, credentialId))?.doc;
  if (!view || view.deleted || view.team_id !== teamId) throw validationError(field, 'names no vc credential of this team');
  if (view.type !== 'oauth') throw validationError(field, 'names SDK credentials, not an OAuth connection: stored SDK credentials sign every vc bot of the team by themselves');
};
