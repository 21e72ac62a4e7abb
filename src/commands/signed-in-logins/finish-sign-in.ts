import * as E from 'fp-ts/Either';
import type { ReadStore } from '../../adapters/read-store/port';
import { effectOf, signInFailureCode, type SignInFailureKind } from '../../domain/signed-in-logins/sign-in-failures';
import { BOT_LOGIN_SESSIONS, type BotLoginSessionView } from '../../projections/signed-in-logins/bot-login-session-view';
import { LOGINS, type LoginView } from '../../projections/signed-in-logins/login-view';
import type { CommandDeps } from '../command-deps';
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
export const recordSignInResult = async (deps: { commands: CommandDeps; readStore: ReadStore }, botId: string, result: SignInResult): Promise<SignInRecorded> => {
  const held = (await deps.readStore.get<BotLoginSessionView>(BOT_LOGIN_SESSIONS, botId))?.doc;
  const credentialId = held?.credential_ids[0];
  if (!held || credentialId === undefined) return { error_code: null, position: null };
  const login = (await deps.readStore.get<LoginView>(LOGINS, credentialId))?.doc;
  if (!login) return { error_code: null, position: null };
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
