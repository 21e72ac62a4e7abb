import type { ReadStore } from '../../adapters/read-store/port';
import type { VcJoin } from '../../domain/bot/vc-join';
import { checkWebhookTarget, type WebhookTargets } from '../v2/webhook-targets';
import { checkConnectionOfUser, checkOAuthCredential } from './vc-credential-operations';

/** How an API generation names the vc fields, so that a refusal names what the caller sent. */
export interface VcJoinFieldNames {
  readonly tokenUrl: string;
  readonly zakUrl: string;
  readonly credential: string;
  readonly credentialUser: string;
}

export const v2VcFieldNames: VcJoinFieldNames = {
  tokenUrl: 'body/vc_config/obf_token_url',
  zakUrl: 'body/vc_config/zak_token_url',
  credential: 'body/vc_config/credential_id',
  credentialUser: 'body/vc_config/credential_user_id',
};

export const legacyVcFieldNames: VcJoinFieldNames = {
  tokenUrl: 'body/vc_obf_token_url',
  zakUrl: 'body/vc_access_token_url',
  credential: 'body/vc_obf_token_user_id',
  credentialUser: 'body/vc_obf_token_user_id',
};

/**
 * What can be known of a vc join at creation: token URLs the service would never call (the webhooks'
 * address policy, checked again at join time on the address really connected to) and stored credentials
 * the team does not have. A credential deleted or turned invalid later fails the join (VC_OBF_TOKEN_ERROR).
 */
export const checkVcJoin = async (
  deps: { readonly readStore: ReadStore; readonly webhookTargets: WebhookTargets },
  teamId: string,
  vc: VcJoin | null,
  names: VcJoinFieldNames,
): Promise<void> => {
  if (vc === null) return;
  if (vc.obf?.kind === 'token_url') await checkWebhookTarget(deps.webhookTargets, names.tokenUrl, vc.obf.url);
  if (vc.zak_token_url !== null) await checkWebhookTarget(deps.webhookTargets, names.zakUrl, vc.zak_token_url);
  if (vc.obf?.kind === 'credential') await checkOAuthCredential(deps.readStore, teamId, vc.obf.credential_id, names.credential);
  if (vc.obf?.kind === 'credential_user') await checkConnectionOfUser(deps.readStore, teamId, vc.obf.vc_user_id, names.credentialUser);
};
