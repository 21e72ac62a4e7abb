import type { ReadStore } from '../../adapters/read-store/port';
import { BOT_LOGIN_SESSIONS, type BotLoginSessionView } from '../../projections/signed-in-logins/bot-login-session-view';
import type { CommandDeps } from '../command-deps';
import { handleLoginCommand } from './login-streams';

/** Gives back every login session a bot still holds (its end, however it came). Releasing twice is nothing. */
export const releaseSessionsOfBot = async (deps: { commands: CommandDeps; readStore: ReadStore }, botId: string): Promise<number> => {
  const held = (await deps.readStore.get<BotLoginSessionView>(BOT_LOGIN_SESSIONS, botId))?.doc;
  if (!held) return 0;
  for (const credentialId of held.credential_ids) {
    await handleLoginCommand(deps.commands, held.platform, credentialId, { type: 'ReleaseLogin', bot_id: botId, reason: 'bot_ended', now: deps.commands.clock().toISOString() });
  }
  return held.credential_ids.length;
};
