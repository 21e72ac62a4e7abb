import type { ReadStore } from '../../adapters/read-store/port';
import type { DomainEvent } from '../../domain/all-events';
import type { OutgoingMessage } from '../../domain/webhooks/bot-webhook-messages';
import { loginInvalidMessage, loginSaturatedMessage, workspaceInvalidMessage } from '../../domain/webhooks/login-webhook-messages';
import { LOGINS, type LoginView } from '../../projections/signed-in-logins/login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from '../../projections/signed-in-logins/workspace-view';
import { subjectOfLogin, subjectOfWorkspace } from './login-subject';
import { subjectOfBot } from './render-payload';

export interface LoginMessageDeps {
  readonly readStore: ReadStore;
  readonly waitForReadModels: (position: bigint) => Promise<boolean>;
}

/** An account webhook of signed-in bots, for the team's endpoints. */
export interface LoginMessage {
  readonly team_id: string;
  /** delivery subject: a saturation goes with its bot's messages (before its bot.failed), the others with their login or workspace */
  readonly subject: string;
  readonly message: OutgoingMessage;
}

const LOGIN_MESSAGE_EVENTS: ReadonlySet<string> = new Set(['LoginInvalidated', 'WorkspaceInvalidated', 'LoginSaturated']);

export const makesLoginMessage = (event: DomainEvent): boolean => LOGIN_MESSAGE_EVENTS.has(event.type);

const readModelsAt = async (deps: LoginMessageDeps, position: bigint) => {
  if (!(await deps.waitForReadModels(position))) throw new Error(`read models did not reach position ${position} in time`);
};

/**
 * The message of `login.invalid`, `workspace.invalid` or `login.saturated` an event makes, if it makes one;
 * the login's or workspace's fields as the read models show them at the event.
 */
export const loginMessageOf = async (deps: LoginMessageDeps, event: DomainEvent, position: bigint): Promise<LoginMessage | null> => {
  switch (event.type) {
    case 'LoginInvalidated': {
      await readModelsAt(deps, position);
      const login = (await deps.readStore.get<LoginView>(LOGINS, event.data.credential_id))?.doc;
      if (!login) return null;
      const { workspace_id, email, name, email_group } = login;
      return { team_id: event.data.team_id, subject: subjectOfLogin(login.credential_id), message: loginInvalidMessage(event, { workspace_id, email, name, email_group }) };
    }
    case 'WorkspaceInvalidated': {
      await readModelsAt(deps, position);
      const workspace = (await deps.readStore.get<WorkspaceView>(LOGIN_WORKSPACES, event.data.workspace_id))?.doc;
      if (!workspace) return null;
      return { team_id: event.data.team_id, subject: subjectOfWorkspace(workspace.workspace_id), message: workspaceInvalidMessage(event, { domain: workspace.domain, name: workspace.name }) };
    }
    case 'LoginSaturated':
      return { team_id: event.data.team_id, subject: subjectOfBot(event.data.bot_id), message: loginSaturatedMessage(event) };
    default:
      return null;
  }
};
