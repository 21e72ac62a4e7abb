import { KeyedMutex } from '../keyed-mutex';
import { accessTokenUsable, type OAuthCredential } from '../../domain/vc-credentials/vc-credential-decider';
import type { OAuthTokens } from '../../domain/vc-credentials/vc-credential-events';
import { nowIso } from '../command-deps';
import { handleVcCredentialCommand, loadVcCredential, sealTokens, type VcCredentialDeps } from './vc-credential-store';

/** A fresh OBF token, or why there is none (for the bot's VC_OBF_TOKEN_ERROR message: no token, no secret). */
export type ObfFromCredential = { readonly ok: true; readonly token: string; readonly credential: OAuthCredential } | { readonly ok: false; readonly reason: string };

/** One refresh at a time per credential in this process: the platform rotates refresh tokens, a second use of one is refused. */
const refreshes = new KeyedMutex();

const unusable = (credential: OAuthCredential | null, credentialId: string): string | null => {
  if (credential === null) return `the vc credential ${credentialId} does not exist (deleted?)`;
  if (credential.state === 'invalid') return `the vc credential ${credentialId} is invalid since ${credential.invalidated_at}: ${credential.invalid_reason}; the user must authorise the app again`;
  return null;
};

const loadOAuth = async (deps: VcCredentialDeps, credentialId: string): Promise<OAuthCredential | null> => {
  const { current } = await loadVcCredential(deps.commands, credentialId);
  return current?.kind === 'oauth' ? current : null;
};

const invalidate = (deps: VcCredentialDeps, credentialId: string, reason: string) =>
  handleVcCredentialCommand(deps.commands, credentialId, { type: 'InvalidateVcCredential', credential_id: credentialId, reason, now: nowIso(deps.commands) });

/**
 * New tokens by the refresh-token grant, recorded (sealed). A refusal makes the credential invalid with
 * the platform's reason, unless another process refreshed it meanwhile (its refresh token moved on: the
 * refusal was of the old one), in which case its tokens are used.
 */
const refreshed = async (deps: VcCredentialDeps, credential: OAuthCredential): Promise<OAuthCredential | { reason: string }> =>
  refreshes.run(credential.credential_id, async () => {
    const latest = await loadOAuth(deps, credential.credential_id);
    const problem = unusable(latest, credential.credential_id);
    if (problem !== null || latest === null) return { reason: problem ?? 'deleted' };
    // Refreshed by someone else while this one waited: use theirs.
    if (latest.tokens.refresh_token.sealed !== credential.tokens.refresh_token.sealed && accessTokenUsable(latest.tokens, deps.commands.clock().getTime())) return latest;
    const client = { client_id: latest.client_id, client_secret: await deps.sealer.open(latest.key_id, latest.client_secret) };
    const grant = await deps.platform.refresh(client, await deps.sealer.open(latest.key_id, latest.tokens.refresh_token));
    if (!grant.ok) {
      const again = await loadOAuth(deps, latest.credential_id);
      if (again && again.tokens.refresh_token.sealed !== latest.tokens.refresh_token.sealed) return again;
      if (grant.refused) await invalidate(deps, latest.credential_id, grant.reason);
      return { reason: grant.reason };
    }
    const expiresAt = new Date(deps.commands.clock().getTime() + grant.value.expires_in * 1000).toISOString();
    const tokens: OAuthTokens = await sealTokens(deps.sealer, latest.key_id, grant.value, expiresAt);
    await handleVcCredentialCommand(deps.commands, latest.credential_id, { type: 'RecordOAuthRefresh', credential_id: latest.credential_id, tokens, now: nowIso(deps.commands) });
    return { ...latest, tokens, refreshed_at: nowIso(deps.commands) };
  });

/**
 * The spec's managed OAuth at join time: the stored connection, its access token refreshed when it has
 * expired (or when the platform refuses it), then a fresh OBF token of its user for this meeting. Called at
 * every join and every retry: OBF tokens are short-lived and single-use.
 */
export const obfTokenOfCredential = async (deps: VcCredentialDeps, credentialId: string, meetingNumber: string): Promise<ObfFromCredential> => {
  let credential = await loadOAuth(deps, credentialId);
  const problem = unusable(credential, credentialId);
  if (problem !== null || credential === null) return { ok: false, reason: problem ?? 'deleted' };
  let fresh = false;
  if (!accessTokenUsable(credential.tokens, deps.commands.clock().getTime())) {
    const renewed = await refreshed(deps, credential);
    if ('reason' in renewed) return { ok: false, reason: `the access token could not be refreshed: ${renewed.reason}` };
    credential = renewed;
    fresh = true;
  }
  for (;;) {
    const token = await deps.platform.obfToken(await deps.sealer.open(credential.key_id, credential.tokens.access_token), meetingNumber);
    if (token.ok) return { ok: true, token: token.value, credential };
    // An access token the platform no longer takes (revoked, or expired early): one refresh, then give up.
    if (!token.refused || fresh) {
      if (token.refused) await invalidate(deps, credential.credential_id, token.reason);
      return { ok: false, reason: token.reason };
    }
    const renewed = await refreshed(deps, credential);
    if ('reason' in renewed) return { ok: false, reason: `the access token could not be refreshed: ${renewed.reason}` };
    credential = renewed;
    fresh = true;
  }
};
