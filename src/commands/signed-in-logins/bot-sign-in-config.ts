import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { loadBotFacts } from '../bot-commands';
import type { CommandDeps } from '../command-deps';

export interface BotSignInChoice {
  readonly team_id: string;
  readonly platform: LoginPlatform;
  readonly login: { readonly credential_id: string | null; readonly email_group: string | null; readonly fallback: 'fail' | 'anonymous' };
}

/** What a queued bot runs with for signing in (its tm_config / mt_config); null for a guest join. */
export const botConfigOf = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotSignInChoice | null> => {
  const facts = await loadBotFacts(deps, botId);
  const login = facts?.run_config?.login ?? null;
  if (facts === null || login === null || facts.platform === 'vc') return null;
  return { team_id: facts.team_id, platform: facts.platform, login };
};
