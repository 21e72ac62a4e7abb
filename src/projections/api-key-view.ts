import type { Permission } from '../domain/team/team-events';
import type { Projection } from './projection';

/** Looked up on every request by the hash of the presented key. */
export type ApiKeyView = {
  readonly id: string; // the key's hash
  readonly key_id: string;
  readonly team_id: string;
  readonly permission: Permission;
  readonly revoked: boolean;
};

export const API_KEYS = 'api_keys';

export const apiKeyViewProjection: Projection<ApiKeyView> = {
  collection: API_KEYS,
  documentId: (event) => (event.type === 'ApiKeyIssued' || event.type === 'ApiKeyRevoked' ? event.data.key_hash : null),
  evolve: (doc, event) => {
    if (event.type === 'ApiKeyIssued') {
      const { key_hash, key_id, team_id, permission } = event.data;
      return { id: key_hash, key_id, team_id, permission, revoked: false };
    }
    if (event.type === 'ApiKeyRevoked' && doc) return { ...doc, revoked: true };
    return null;
  },
};
