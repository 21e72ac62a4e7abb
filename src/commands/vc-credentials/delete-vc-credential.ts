import * as E from 'fp-ts/Either';
import type { VcCredentialRejection } from '../../domain/vc-credentials/vc-credential-decider';
import { nowIso } from '../command-deps';
import { handleVcCredentialCommand, loadVcCredential, type VcCredentialDeps, type VcCredentialResult } from './vc-credential-store';

/**
 * Deletes a team's credential and removes its stored tokens (spec): the key that sealed them is destroyed
 * first, so that even if recording the deletion fails, nothing of it can be read any more (a second DELETE
 * records it). Another team's credential is not found.
 */
export const deleteVcCredential = async (deps: Pick<VcCredentialDeps, 'commands' | 'sealer'>, teamId: string, credentialId: string): Promise<VcCredentialResult> => {
  const { current } = await loadVcCredential(deps.commands, credentialId);
  if (current === null || current.team_id !== teamId) {
    return E.left<VcCredentialRejection, never>({ code: 'VC_CREDENTIAL_NOT_FOUND', message: 'No vc credential with this id exists' });
  }
  await deps.sealer.destroy(current.key_id);
  return handleVcCredentialCommand(deps.commands, credentialId, { type: 'DeleteVcCredential', credential_id: credentialId, now: nowIso(deps.commands) });
};
