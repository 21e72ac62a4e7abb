import type { LoginEvent } from '../signed-in-logins/login-events';
import type { PoolEvent } from '../signed-in-logins/pool-events';
import type { WorkspaceEvent } from '../signed-in-logins/workspace-events';
import type { OutgoingMessage } from './bot-webhook-messages';

/** What a login's message names besides its event: who it is, as the API shows it. */
export interface LoginIdentity {
  readonly workspace_id: string;
  readonly email: string;
  readonly name: string;
  readonly email_group: string | null;
}

export interface WorkspaceIdentity {
  readonly domain: string;
  readonly name: string;
}

const message = (event_type: string, data: Record<string, unknown>): OutgoingMessage => ({ event_type, payload: { event: event_type, data } });

/**
 * `login.invalid`: a login turned invalid (the platform refused it); pools skip it until a PATCH re-enables
 * it. The data is the login's fields of the API and what went wrong (`failure_data.code`: the error code).
 */
export const loginInvalidMessage = (event: Extract<LoginEvent, { type: 'LoginInvalidated' }>, login: LoginIdentity): OutgoingMessage =>
  message('login.invalid', {
    platform: event.data.platform,
    credential_id: event.data.credential_id,
    ...login,
    state: 'invalid',
    last_error_at: event.data.at,
    last_error_message: event.data.message,
    failure_data: event.data.failure_data,
  });

/** `workspace.invalid`: the platform rejected our SAML assertion; every login of the workspace is skipped until it is re-enabled. */
export const workspaceInvalidMessage = (event: Extract<WorkspaceEvent, { type: 'WorkspaceInvalidated' }>, workspace: WorkspaceIdentity): OutgoingMessage =>
  message('workspace.invalid', {
    platform: event.data.platform,
    workspace_id: event.data.workspace_id,
    ...workspace,
    state: 'invalid',
    last_error_at: event.data.at,
    last_error_message: event.data.message,
    failure_data: event.data.failure_data,
  });

/** `login.saturated`: a bot found no login with room (or none active), and what it did instead (`fallback`). */
export const loginSaturatedMessage = (event: PoolEvent): OutgoingMessage => {
  const { team_id: _team, at, ...data } = event.data;
  return message('login.saturated', { ...data, at });
};
