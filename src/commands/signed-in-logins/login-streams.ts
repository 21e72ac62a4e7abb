import type * as E from 'fp-ts/Either';
import type { Sealed } from '../../domain/codec-helpers';
import { loginDecider, type LoginCommand, type LoginRejection, type LoginState } from '../../domain/signed-in-logins/login-decider';
import { LoginEvent } from '../../domain/signed-in-logins/login-events';
import { loginPoolStreamName, loginStreamName, workspaceStreamName, type LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { poolDecider, type PoolState, type RecordSaturation } from '../../domain/signed-in-logins/pool-decider';
import { PoolEvent } from '../../domain/signed-in-logins/pool-events';
import { workspaceDecider, type WorkspaceCommand, type WorkspaceRejection, type WorkspaceState } from '../../domain/signed-in-logins/workspace-decider';
import { WorkspaceEvent, type SigningKey } from '../../domain/signed-in-logins/workspace-events';
import type { CommandDeps } from '../command-deps';
import { decodeRecordedEvent } from '../decode-recorded-event';
import { handleCommand, loadState, type Handled } from '../handle-command';

type Store = Pick<CommandDeps, 'eventStore'>;

export type LoginCommandResult = E.Either<LoginRejection, Handled<LoginEvent, LoginState>>;
export type WorkspaceCommandResult = E.Either<WorkspaceRejection, Handled<WorkspaceEvent, WorkspaceState>>;

export const handleLoginCommand = (deps: Store, platform: LoginPlatform, credentialId: string, command: LoginCommand): Promise<LoginCommandResult> =>
  handleCommand(deps.eventStore, loginStreamName(platform, credentialId), loginDecider, LoginEvent, command);

export const loadLogin = (deps: Store, platform: LoginPlatform, credentialId: string): Promise<LoginState> =>
  loadState(deps.eventStore, loginStreamName(platform, credentialId), loginDecider, LoginEvent);

export const handleWorkspaceCommand = (deps: Store, platform: LoginPlatform, workspaceId: string, command: WorkspaceCommand): Promise<WorkspaceCommandResult> =>
  handleCommand(deps.eventStore, workspaceStreamName(platform, workspaceId), workspaceDecider, WorkspaceEvent, command);

export const loadWorkspace = (deps: Store, platform: LoginPlatform, workspaceId: string): Promise<WorkspaceState> =>
  loadState(deps.eventStore, workspaceStreamName(platform, workspaceId), workspaceDecider, WorkspaceEvent);

export const recordSaturation = (deps: Store, command: RecordSaturation): Promise<E.Either<never, Handled<PoolEvent, PoolState>>> =>
  handleCommand(deps.eventStore, loginPoolStreamName(command.platform, command.team_id), poolDecider, PoolEvent, command);

/** The login's password as last set (sealed), from its own stream: no read model holds it. */
export const sealedPasswordOf = async (deps: Store, platform: LoginPlatform, credentialId: string): Promise<Sealed | null> => {
  let password: Sealed | null = null;
  for (const recorded of await deps.eventStore.readStream(loginStreamName(platform, credentialId))) {
    const event = decodeRecordedEvent(LoginEvent, recorded);
    if (event.type === 'LoginCreated' || event.type === 'LoginPasswordChanged') password = event.data.password;
  }
  return password;
};

/** The mt workspace's signing key (private key sealed), from its own stream. */
export const signingKeyOf = async (deps: Store, workspaceId: string): Promise<SigningKey | null> => {
  const [first] = await deps.eventStore.readStream(workspaceStreamName('mt', workspaceId));
  const event = first && decodeRecordedEvent(WorkspaceEvent, first);
  return event?.type === 'WorkspaceCreated' ? event.data.signing_key : null;
};
