import * as E from 'fp-ts/Either';
import type { VcPlatformFailure } from '../../adapters/vc-platform/port';
import type { CreatedBy } from '../../domain/bot/bot-events';
import { nowIso } from '../command-deps';
import { oauthCredentialIdOf, recordSealed, sealTokens, type VcCredentialDeps, type VcCredentialResult } from './vc-credential-store';

export interface OAuthConnectRequest {
  readonly team_id: string;
  readonly created_by: CreatedBy;
  readonly client_id: string;
  readonly client_secret: string;
  readonly authorization_code: string;
  readonly redirect_uri: string;
}

/** The platform refused (or failed) the code exchange or the user lookup: nothing is stored. */
export interface ConnectRefused {
  readonly kind: 'platform';
  readonly failure: VcPlatformFailure;
}

/**
 * The spec's managed OAuth flow, step 2: exchange the authorization code with the customer's client id
 * and secret, ask the platform whose tokens they are (`GET /users/me`), and keep the tokens sealed. The
 * same vc user authorising again re-authorises the team's connection of that user (and makes it active).
 */
export const connectOAuthCredential = async (
  deps: VcCredentialDeps,
  request: OAuthConnectRequest,
): Promise<E.Either<ConnectRefused, VcCredentialResult>> => {
  const client = { client_id: request.client_id, client_secret: request.client_secret };
  const grant = await deps.platform.exchangeCode(client, request.authorization_code, request.redirect_uri);
  if (!grant.ok) return E.left({ kind: 'platform', failure: grant });
  const user = await deps.platform.currentUser(grant.value.access_token);
  if (!user.ok) return E.left({ kind: 'platform', failure: user });
  const now = nowIso(deps.commands);
  const expiresAt = new Date(deps.commands.clock().getTime() + grant.value.expires_in * 1000).toISOString();
  const credentialId = oauthCredentialIdOf(request.team_id, user.value.id);
  const result = await recordSealed(deps, credentialId, async (keyId) => ({
    type: 'ConnectOAuthCredential',
    credential_id: credentialId,
    team_id: request.team_id,
    key_id: keyId,
    created_by: request.created_by,
    client_id: request.client_id,
    client_secret: await deps.sealer.seal(keyId, request.client_secret),
    redirect_uri: request.redirect_uri,
    vc_user_id: user.value.id,
    vc_account_id: user.value.account_id,
    scopes: grant.value.scope,
    tokens: await sealTokens(deps.sealer, keyId, grant.value, expiresAt),
    now,
  }));
  return E.right(result);
};
