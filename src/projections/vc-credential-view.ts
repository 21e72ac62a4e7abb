import type { DomainEvent } from '../domain/all-events';
import { isVcCredentialEvent } from '../domain/vc-credentials/vc-credential-events';
import type { Projection } from './projection';

/**
 * A stored vc credential as both APIs show it (`/vc_oauth_connections`, `/v2/vc-credentials`): never a
 * secret, a token or the key id. A deleted credential is kept as `deleted` (lists and reads leave it out).
 */
export type VcCredentialView = {
  readonly id: string;
  readonly team_id: string;
  readonly type: 'oauth' | 'sdk';
  readonly state: 'active' | 'invalid';
  /** oauth: whose tokens they are, and with which OAuth app */
  readonly vc_user_id: string | null;
  readonly vc_account_id: string | null;
  readonly scopes: string | null;
  readonly client_id: string | null;
  /** sdk: the app's key (its secret is never shown) and the team's name for it */
  readonly sdk_id: string | null;
  readonly name: string | null;
  readonly invalid_reason: string | null;
  readonly invalidated_at: string | null;
  readonly last_refreshed_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly deleted: boolean;
};

export const VC_CREDENTIALS = 'vc_credentials';

const empty = { vc_user_id: null, vc_account_id: null, scopes: null, client_id: null, sdk_id: null, name: null, invalid_reason: null, invalidated_at: null, last_refreshed_at: null };

const evolve = (doc: VcCredentialView | null, event: DomainEvent): VcCredentialView | null => {
  if (!isVcCredentialEvent(event)) return null;
  switch (event.type) {
    case 'VcOAuthCredentialConnected': {
      const { credential_id, team_id, client_id, vc_user_id, vc_account_id, scopes, at } = event.data;
      return { ...empty, id: credential_id, team_id, type: 'oauth', state: 'active', client_id, vc_user_id, vc_account_id, scopes, created_at: at, updated_at: at, deleted: false };
    }
    case 'VcOAuthCredentialReauthorised': {
      const { client_id, vc_user_id, vc_account_id, scopes, at } = event.data;
      return doc && { ...doc, client_id, vc_user_id, vc_account_id, scopes, state: 'active', invalid_reason: null, invalidated_at: null, updated_at: at };
    }
    case 'VcOAuthTokensRefreshed':
      return doc && { ...doc, last_refreshed_at: event.data.at, updated_at: event.data.at };
    case 'VcCredentialInvalidated':
      return doc && { ...doc, state: 'invalid', invalid_reason: event.data.reason, invalidated_at: event.data.at, updated_at: event.data.at };
    case 'VcSdkCredentialStored': {
      const { credential_id, team_id, sdk_id, name, at } = event.data;
      const created_at = doc && !doc.deleted ? doc.created_at : at;
      return { ...empty, id: credential_id, team_id, type: 'sdk', state: 'active', sdk_id, name, created_at, updated_at: at, deleted: false };
    }
    case 'VcCredentialDeleted':
      return doc && { ...doc, deleted: true, updated_at: event.data.at };
  }
};

export const vcCredentialViewProjection: Projection<VcCredentialView> = {
  collection: VC_CREDENTIALS,
  documentId: (event) => (isVcCredentialEvent(event) ? event.data.credential_id : null),
  evolve,
  indexes: [[{ field: 'team_id', direction: 'asc' }, { field: 'created_at', direction: 'asc' }]],
};
