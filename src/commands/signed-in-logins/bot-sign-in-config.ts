import { BotCreated, botStreamName } from '../../domain/bot/bot-events';
import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import type { CommandDeps } from '../command-deps';
import { decodeRecordedEvent } from '../decode-recorded-event';

export interface BotSignInChoice {
  readonly team_id: string;
  readonly platform: LoginPlatform;
  readonly login: { readonly credential_id: string | null; readonly email_group: string | null; readonly fallback: 'fail' | 'anonymous' };
}

/** What a bot's BotCreated asked for signing in (its tm_config / mt_config); null for a guest join. */
export const botConfigOf = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotSignInChoice | null> => {
  const created = (await deps.eventStore.readStream(botStreamName(botId))).find((r) => r.type === 'BotCreated');
  if (!created) return null;
  const { team_id, platform, config } = decodeRecordedEvent(BotCreated, created).data;
  if (config.login === null || platform === 'vc') return null;
  return { team_id, platform, login: config.login };
};
