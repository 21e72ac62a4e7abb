import * as E from 'fp-ts/Either';
import { effectOf, signInFailureCode, type SignInFailureKind } from '../../domain/signed-in-logins/sign-in-failures';
import type { CommandDeps } from '../command-deps';
import type { LoginLookups } from './login-lookups';
import { handleLoginCommand, handleWorkspaceCommand } from './login-streams';

export type SignInResult = { readonly ok: true } | { readonly ok: false; readonly kind: SignInFailureKind; readonly message: string };

export interface SignInRecorded {
  /** the error code the failure stands for (null on success, or when the bot holds no session) */
  readonly error_code: string | null;
  /** the last position written, for read-your-writes */
  readonly position: bigint | null;
}

const later = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null ? a : a > b ? a : b);

/**
 * What became of a bot's sign-in, on the login it holds a session of: a success marks the login used; a
 * failure is recorded with its code, ends the session, and turns the login (or, for a rejected assertion,
 * the mt workspace) invalid as the failure says.
 */
export const recordSignInResult = async (
  deps: { readonly commands: CommandDeps; readonly logins: Pick<LoginLookups, 'heldLoginOf'> },
  botId: string,
  result: SignInResult,
): Promise<SignInRecorded> => {
  const login = await deps.logins.heldLoginOf(botId);
  if (!login) return { error_code: null, position: null };
  const credentialId = login.credential_id;
  const now = deps.commands.clock().toISOString();
  if (result.ok) {
    const signedIn = await handleLoginCommand(deps.commands, login.platform, credentialId, { type: 'RecordSignIn', bot_id: botId, now });
    return { error_code: null, position: E.isRight(signedIn) ? signedIn.right.position : null };
  }
  const code = signInFailureCode(login.platform, result.kind);
  const failed = await handleLoginCommand(deps.commands, login.platform, credentialId, { type: 'RecordSignInFailure', bot_id: botId, kind: result.kind, message: result.message, now });
  let position = E.isRight(failed) ? failed.right.position : null;
  if (effectOf(result.kind) === 'workspace_invalid') {
    const invalidated = await handleWorkspaceCommand(deps.commands, login.platform, login.workspace_id, {
      type: 'InvalidateWorkspace',
      message: result.message,
      failure_data: { code, reason: result.kind, bot_id: botId },
      now,
    });
    position = later(position, E.isRight(invalidated) ? invalidated.right.position : null);
  }
  return { error_code: code, position };
};
