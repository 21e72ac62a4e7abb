import type { DomainEvent } from '../../domain/all-events';
import { isLoginEvent } from '../../domain/signed-in-logins/login-events';
import type { CredentialState, FailureData, LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import type { Projection } from '../projection';

/**
 * A login as the API shows it (never the password), with its sessions: `sessions` are the bots holding one
 * now, so `active_session_count` is exact after any restart (a fold of LoginLeased / LoginReleased).
 */
export type LoginView = {
  readonly id: string;
  readonly credential_id: string;
  readonly team_id: string;
  readonly platform: LoginPlatform;
  readonly workspace_id: string;
  readonly email: string;
  readonly email_group: string | null;
  readonly name: string;
  readonly extra: Record<string, unknown> | null;
  readonly state: CredentialState;
  readonly failure_data: FailureData | null;
  readonly last_error_at: string | null;
  readonly last_error_message: string | null;
  readonly last_used_at: string | null;
  readonly capacity: number;
  readonly sessions: readonly string[];
  readonly active_session_count: number;
  /** asked to be deleted while in use: it finishes its sessions and goes */
  readonly deleting: boolean;
  readonly deleted: boolean;
  readonly created_at: string;
  readonly updated_at: string;
};

export const LOGINS = 'logins';

const withSessions = (doc: LoginView, sessions: readonly string[]): LoginView => ({ ...doc, sessions, active_session_count: sessions.length });

const evolve = (doc: LoginView | null, event: DomainEvent): LoginView | null => {
  if (event.type === 'LoginCreated') {
    const { credential_id, team_id, platform, workspace_id, email, email_group, name, extra, capacity, at } = event.data;
    return {
      id: credential_id, credential_id, team_id, platform, workspace_id, email, email_group, name, extra, state: 'active', failure_data: null,
      last_error_at: null, last_error_message: null, last_used_at: null, capacity, sessions: [], active_session_count: 0, deleting: false,
      deleted: false, created_at: at, updated_at: at,
    };
  }
  if (doc === null) return null;
  switch (event.type) {
    case 'LoginRenamed':
      return { ...doc, name: event.data.name, updated_at: event.data.at };
    case 'LoginGroupChanged':
      return { ...doc, email_group: event.data.email_group, updated_at: event.data.at };
    case 'LoginExtraChanged':
      return { ...doc, extra: event.data.extra, updated_at: event.data.at };
    case 'LoginPasswordChanged':
      return { ...doc, updated_at: event.data.at };
    case 'LoginLeased':
      return withSessions(doc, [...doc.sessions.filter((id) => id !== event.data.bot_id), event.data.bot_id]);
    case 'LoginReleased':
      return withSessions(doc, doc.sessions.filter((id) => id !== event.data.bot_id));
    case 'LoginSignedIn':
      return { ...doc, last_used_at: event.data.at };
    case 'LoginSignInFailed':
      return { ...doc, last_error_at: event.data.at, last_error_message: event.data.message };
    case 'LoginInvalidated':
      return { ...doc, state: 'invalid', failure_data: event.data.failure_data, updated_at: event.data.at };
    case 'LoginReenabled':
      return { ...doc, state: 'active', updated_at: event.data.at };
    case 'LoginDeletionRequested':
      return { ...doc, deleting: true, updated_at: event.data.at };
    case 'LoginDeleted':
      return { ...doc, deleting: false, deleted: true, updated_at: event.data.at };
    default:
      return null;
  }
};

export const loginViewProjection: Projection<LoginView> = {
  collection: LOGINS,
  documentId: (event) => (isLoginEvent(event) ? event.data.credential_id : null),
  evolve,
  indexes: [[{ field: 'team_id', direction: 'asc' }, { field: 'platform', direction: 'asc' }, { field: 'created_at', direction: 'asc' }]],
};
