import type { EventStore } from '../../adapters/event-store/port';
import type { ReadStore } from '../../adapters/read-store/port';
import { decodeRecordedEvent } from '../../commands/decode-recorded-event';
import type { CreatedBy } from '../../domain/bot/bot-events';
import { LoginEvent } from '../../domain/signed-in-logins/login-events';
import { loginStreamName, workspaceStreamName } from '../../domain/signed-in-logins/login-platform';
import { WorkspaceEvent } from '../../domain/signed-in-logins/workspace-events';
import { LOGINS, type LoginView } from '../../projections/signed-in-logins/login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from '../../projections/signed-in-logins/workspace-view';

/** A login's webhooks share one delivery subject per target, `login-<credential id>`; a workspace's `workspace-<id>`. */
export const subjectOfLogin = (credentialId: string): string => `login-${credentialId}`;
export const subjectOfWorkspace = (workspaceId: string): string => `workspace-${workspaceId}`;

const firstEventOf = async (eventStore: EventStore, stream: string) => (await eventStore.readStream(stream))[0] ?? null;

/** The key that created the login or workspace a subject is about (its webhooks carry it as `x-service-api-key`). */
export const creatorOfLoginSubject = async (deps: { readonly eventStore: EventStore; readonly readStore: ReadStore }, subject: string): Promise<CreatedBy | null> => {
  if (subject.startsWith('login-')) {
    const login = (await deps.readStore.get<LoginView>(LOGINS, subject.slice('login-'.length)))?.doc;
    const first = login ? await firstEventOf(deps.eventStore, loginStreamName(login.platform, login.credential_id)) : null;
    const event = first && decodeRecordedEvent(LoginEvent, first);
    return event?.type === 'LoginCreated' ? event.data.created_by : null;
  }
  if (subject.startsWith('workspace-')) {
    const workspace = (await deps.readStore.get<WorkspaceView>(LOGIN_WORKSPACES, subject.slice('workspace-'.length)))?.doc;
    const first = workspace ? await firstEventOf(deps.eventStore, workspaceStreamName(workspace.platform, workspace.workspace_id)) : null;
    const event = first && decodeRecordedEvent(WorkspaceEvent, first);
    return event?.type === 'WorkspaceCreated' ? event.data.created_by : null;
  }
  return null;
};
