import type { CommandDeps } from '../command-deps';
import type { LoginLookups } from './login-lookups';
import { handleLoginCommand } from './login-streams';

/** Gives back every login session a bot still holds (its end, however it came). Releasing twice is nothing. */
export const releaseSessionsOfBot = async (
  deps: { readonly commands: CommandDeps; readonly logins: Pick<LoginLookups, 'sessionsHeldBy'> },
  botId: string,
): Promise<number> => {
  const held = await deps.logins.sessionsHeldBy(botId);
  if (!held) return 0;
  for (const credentialId of held.credential_ids) {
    await handleLoginCommand(deps.commands, held.platform, credentialId, { type: 'ReleaseLogin', bot_id: botId, reason: 'bot_ended', now: deps.commands.clock().toISOString() });
  }
  return held.credential_ids.length;
};
