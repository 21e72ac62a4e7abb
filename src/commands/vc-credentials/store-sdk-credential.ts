import type { CreatedBy } from '../../domain/bot/bot-events';
import { nowIso } from '../command-deps';
import { recordSealed, sdkCredentialIdOf, type VcCredentialDeps, type VcCredentialResult } from './vc-credential-store';

export interface SdkCredentialRequest {
  readonly team_id: string;
  readonly created_by: CreatedBy;
  readonly sdk_id: string;
  readonly sdk_secret: string;
  readonly name: string | null;
}

/** The team's SDK credentials, stored once instead of passed with every bot (spec): a second store replaces the first. */
export const storeSdkCredential = (deps: Pick<VcCredentialDeps, 'commands' | 'sealer'>, request: SdkCredentialRequest): Promise<VcCredentialResult> => {
  const credentialId = sdkCredentialIdOf(request.team_id);
  return recordSealed(deps as VcCredentialDeps, credentialId, async (keyId) => ({
    type: 'StoreSdkCredential',
    credential_id: credentialId,
    team_id: request.team_id,
    key_id: keyId,
    created_by: request.created_by,
    sdk_id: request.sdk_id,
    sdk_secret: await deps.sealer.seal(keyId, request.sdk_secret),
    name: request.name,
    now: nowIso(deps.commands),
  }));
};
