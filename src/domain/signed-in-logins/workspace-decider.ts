import * as E from 'fp-ts/Either';
import type { CreatedBy } from '../bot/bot-events';
import type { Decider } from '../decider';
import type { CredentialState, FailureData, LoginPlatform } from './login-platform';
import type { SigningKey, WorkspaceEvent } from './workspace-events';

export type WorkspaceCommand =
  | {
      readonly type: 'CreateWorkspace';
      readonly workspace_id: string;
      readonly team_id: string;
      readonly platform: LoginPlatform;
      readonly domain: string;
      readonly name: string;
      readonly extra: Record<string, unknown> | null;
      readonly signing_key: SigningKey | null;
      readonly created_by: CreatedBy | null;
      readonly now: string;
    }
  /** PATCH: only the fields given change; `reenable` asks for the state `active` again. */
  | { readonly type: 'ChangeWorkspace'; readonly name?: string; readonly extra?: Record<string, unknown> | null; readonly reenable: boolean; readonly now: string }
  | { readonly type: 'InvalidateWorkspace'; readonly message: string; readonly failure_data: FailureData; readonly now: string }
  /** `logins`: how many logins of the workspace exist (not deleted); a workspace goes only without any. */
  | { readonly type: 'DeleteWorkspace'; readonly logins: number; readonly now: string };

export interface WorkspaceRejection {
  readonly code: 'WORKSPACE_NOT_FOUND' | 'WORKSPACE_IN_USE';
  readonly message: string;
}

export type WorkspaceState =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly workspace_id: string;
      readonly team_id: string;
      readonly platform: LoginPlatform;
      readonly domain: string;
      readonly state: CredentialState;
      readonly deleted: boolean;
    };

type Present = Extract<WorkspaceState, { kind: 'present' }>;

const initialState = (): WorkspaceState => ({ kind: 'absent' });
const emit = (...events: WorkspaceEvent[]) => E.right<WorkspaceRejection, readonly WorkspaceEvent[]>(events);
const reject = (code: WorkspaceRejection['code'], message: string) => E.left<WorkspaceRejection, readonly WorkspaceEvent[]>({ code, message });

const aboutOf = (state: Present) => ({ workspace_id: state.workspace_id, team_id: state.team_id, platform: state.platform });

const change = (state: Present, command: Extract<WorkspaceCommand, { type: 'ChangeWorkspace' }>) => {
  const about = aboutOf(state);
  const at = command.now;
  const events: WorkspaceEvent[] = [];
  if (command.name !== undefined) events.push({ type: 'WorkspaceRenamed', data: { ...about, name: command.name, at } });
  if (command.extra !== undefined) events.push({ type: 'WorkspaceExtraChanged', data: { ...about, extra: command.extra, at } });
  if (command.reenable && state.state === 'invalid') events.push({ type: 'WorkspaceReenabled', data: { ...about, at } });
  return emit(...events);
};

const decide = (command: WorkspaceCommand, state: WorkspaceState) => {
  if (command.type === 'CreateWorkspace') {
    if (state.kind === 'present') return emit();
    const { type: _type, now, ...data } = command;
    return emit({ type: 'WorkspaceCreated', data: { ...data, at: now } });
  }
  if (state.kind === 'absent' || state.deleted) return reject('WORKSPACE_NOT_FOUND', 'Workspace not found');
  switch (command.type) {
    case 'ChangeWorkspace':
      return change(state, command);
    case 'InvalidateWorkspace':
      // Already invalid: the first failure stays the one shown until the workspace is re-enabled.
      if (state.state === 'invalid') return emit();
      return emit({ type: 'WorkspaceInvalidated', data: { ...aboutOf(state), message: command.message, failure_data: command.failure_data, at: command.now } });
    case 'DeleteWorkspace':
      if (command.logins > 0) return reject('WORKSPACE_IN_USE', `The workspace still has ${command.logins} login(s): delete them first`);
      return emit({ type: 'WorkspaceDeleted', data: { ...aboutOf(state), at: command.now } });
  }
};

const evolve = (state: WorkspaceState, event: WorkspaceEvent): WorkspaceState => {
  if (event.type === 'WorkspaceCreated') {
    if (state.kind === 'present') return state;
    const { workspace_id, team_id, platform, domain } = event.data;
    return { kind: 'present', workspace_id, team_id, platform, domain, state: 'active', deleted: false };
  }
  if (state.kind === 'absent') return state;
  switch (event.type) {
    case 'WorkspaceInvalidated':
      return { ...state, state: 'invalid' };
    case 'WorkspaceReenabled':
      return { ...state, state: 'active' };
    case 'WorkspaceDeleted':
      return { ...state, deleted: true };
    case 'WorkspaceRenamed':
    case 'WorkspaceExtraChanged':
      return state;
  }
};

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState, WorkspaceRejection> = { decide, evolve, initialState };
