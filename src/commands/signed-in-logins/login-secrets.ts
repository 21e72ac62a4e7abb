import * as E from 'fp-ts/Either';
import type { CredentialSeals } from '../../adapters/key-vault/port';
import { loginDecider } from '../../domain/signed-in-logins/login-decider';
import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { workspaceDecider } from '../../domain/signed-in-logins/workspace-decider';
import type { CommandDeps } from '../command-deps';
import {
  handleLoginCommand,
  handleWorkspaceCommand,
  loadLogin,
  loadWorkspace,
  sealedPasswordOf,
  signingKeyOf,
  type LoginCommandResult,
  type WorkspaceCommandResult,
} from './login-streams';

/**
 * The secrets of signed-in bots (a tm login's password, an mt workspace's private signing key) are sealed
 * with a key of their own from the service's key vault (DESIGN.md "vc credentials": one key per
 * credential, outside the log), named after the login or workspace. Deleting the login or workspace
 * destroys that key: nothing it sealed can be read again, in the log or in any copy of it.
 */
export const loginKeyId = (platform: LoginPlatform, credentialId: string): string => `${platform}-login-${credentialId}`;
export const workspaceKeyId = (platform: LoginPlatform, workspaceId: string): string => `${platform}-workspace-${workspaceId}`;

export interface LoginSecretDeps {
  readonly commands: CommandDeps;
  readonly sealer: CredentialSeals;
}

/** The login's password as last set, opened: only for the bot that signs in with it. Null when it has none. */
export const passwordOf = async (deps: LoginSecretDeps, platform: LoginPlatform, credentialId: string): Promise<string | null> => {
  const sealed = await sealedPasswordOf(deps.commands, platform, credentialId);
  return sealed === null ? null : deps.sealer.open(loginKeyId(platform, credentialId), sealed);
};

/** The mt workspace's key pair, its private key opened: only to sign an assertion. */
export const signingKeyPairOf = async (deps: LoginSecretDeps, workspaceId: string): Promise<{ certificatePem: string; privateKeyPem: string } | null> => {
  const key = await signingKeyOf(deps.commands, workspaceId);
  if (!key) return null;
  return { certificatePem: key.certificate_pem, privateKeyPem: await deps.sealer.open(workspaceKeyId('mt', workspaceId), key.private_key) };
};

/**
 * Deletes a login (at once, or once its sessions end): when the login takes the deletion, its key is
 * destroyed first, so that even if recording the deletion fails nothing of its password can be read any
 * more (a second DELETE records it). Sessions in use do not need the password: their bots have signed in.
 */
export const deleteLogin = async (deps: LoginSecretDeps, platform: LoginPlatform, credentialId: string, now: string): Promise<LoginCommandResult> => {
  const command = { type: 'DeleteLogin', now } as const;
  const verdict = loginDecider.decide(command, await loadLogin(deps.commands, platform, credentialId));
  if (E.isRight(verdict) && verdict.right.length > 0) await deps.sealer.destroy(loginKeyId(platform, credentialId));
  return handleLoginCommand(deps.commands, platform, credentialId, command);
};

/** Deletes a workspace without logins, its signing key destroyed first (as a login's password). */
export const deleteWorkspace = async (deps: LoginSecretDeps, platform: LoginPlatform, workspaceId: string, logins: number, now: string): Promise<WorkspaceCommandResult> => {
  const command = { type: 'DeleteWorkspace', logins, now } as const;
  const verdict = workspaceDecider.decide(command, await loadWorkspace(deps.commands, platform, workspaceId));
  if (E.isRight(verdict) && verdict.right.length > 0) await deps.sealer.destroy(workspaceKeyId(platform, workspaceId));
  return handleWorkspaceCommand(deps.commands, platform, workspaceId, command);
};
