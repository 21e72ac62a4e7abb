import type { VcCredentialEvent } from '../vc-credentials/vc-credential-events';
import type { OutgoingMessage } from './bot-webhook-messages';

type Invalidated = Extract<VcCredentialEvent, { type: 'VcCredentialInvalidated' }>['data'];

/**
 * A stored vc credential the platform refused for good (a refresh refused): the team is told, so that the
 * user authorises the app again (`POST /vc_oauth_connections` or `/v2/vc-credentials` with a new code)
 * before more bots fail with VC_OBF_TOKEN_ERROR.
 */
export const vcCredentialInvalidMessage = (invalidated: Invalidated, vcUserId: string | null): OutgoingMessage => ({
  event_type: 'vc_credential.invalid',
  payload: {
    event: 'vc_credential.invalid',
    data: { credential_id: invalidated.credential_id, type: 'oauth', vc_user_id: vcUserId, state: 'invalid', reason: invalidated.reason, invalidated_at: invalidated.at },
  },
});

/** A credential's webhooks share one delivery subject per target, `vc-credential-<id>`, as a bot's share `bot-<id>`. */
export const subjectOfVcCredential = (credentialId: string): string => `vc-credential-${credentialId}`;
export const vcCredentialOfSubject = (subject: string): string | null => (subject.startsWith('vc-credential-') ? subject.slice('vc-credential-'.length) : null);
