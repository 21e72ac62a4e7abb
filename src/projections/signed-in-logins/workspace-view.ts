import type { DomainEvent } from '../../domain/all-events';
import type { CredentialState, FailureData, LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { isWorkspaceEvent } from '../../domain/signed-in-logins/workspace-events';
import type { Projection } from '../projection';

/** A tm or mt workspace as the API shows it (never the private key: only its certificate, for mt). */
export type WorkspaceView = {
  readonly id: string;
  readonly workspace_id: string;
  readonly team_id: string;
  readonly platform: LoginPlatform;
  readonly domain: string;
  readonly name: string;
  readonly extra: Record<string, unknown> | null;
  readonly state: CredentialState;
  readonly failure_data: FailureData | null;
  readonly last_error_at: string | null;
  readonly last_error_message: string | null;
  /** mt: what the customer enters in the domain's SSO profile */
  readonly certificate_pem: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly deleted: boolean;
};

export const LOGIN_WORKSPACES = 'login_workspaces';

const evolve = (doc: WorkspaceView | null, event: DomainEvent): WorkspaceView | null => {
  if (event.type === 'WorkspaceCreated') {
    const { workspace_id, team_id, platform, domain, name, extra, signing_key, at } = event.data;
    return {
      id: workspace_id, workspace_id, team_id, platform, domain, name, extra, state: 'active', failure_data: null, last_error_at: null,
      last_error_message: null, certificate_pem: signing_key?.certificate_pem ?? null, created_at: at, updated_at: at, deleted: false,
    };
  }
  if (doc === null) return null;
  switch (event.type) {
    case 'WorkspaceRenamed':
      return { ...doc, name: event.data.name, updated_at: event.data.at };
    case 'WorkspaceExtraChanged':
      return { ...doc, extra: event.data.extra, updated_at: event.data.at };
    case 'WorkspaceInvalidated':
      return { ...doc, state: 'invalid', failure_data: event.data.failure_data, last_error_at: event.data.at, last_error_message: event.data.message, updated_at: event.data.at };
    case 'WorkspaceReenabled':
      // The last error stays visible (when and why it was last refused); the state says it is usable again.
      return { ...doc, state: 'active', updated_at: event.data.at };
    case 'WorkspaceDeleted':
      return { ...doc, deleted: true, updated_at: event.data.at };
    default:
      return null;
  }
};

export const workspaceViewProjection: Projection<WorkspaceView> = {
  collection: LOGIN_WORKSPACES,
  documentId: (event) => (isWorkspaceEvent(event) ? event.data.workspace_id : null),
  evolve,
  indexes: [[{ field: 'team_id', direction: 'asc' }, { field: 'platform', direction: 'asc' }, { field: 'created_at', direction: 'asc' }]],
};
