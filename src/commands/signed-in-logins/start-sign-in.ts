import * as E from 'fp-ts/Either';
import { loginUnavailableCode } from '../../domain/signed-in-logins/sign-in-failures';
import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import { isActiveLogin, loginsInOrderOfChoice, matchingLogins, type LoginCandidate } from '../../domain/signed-in-logins/pool-selection';
import { loadBot } from '../bot-commands';
import type { CommandDeps } from '../command-deps';
import { botConfigOf } from './bot-sign-in-config';
import type { LoginLookups } from './login-lookups';
import { handleLoginCommand, recordSaturation } from './login-streams';

export interface StartSignInDeps<C extends LoginCandidate> {
  readonly commands: CommandDeps;
  readonly logins: Pick<LoginLookups<C>, 'candidatesOf' | 'sessionsHeldBy'>;
}

export type SignInStart<C extends LoginCandidate> =
  /** the bot holds a session of this login now (`position`: where the read models must be for it to show) */
  | { readonly kind: 'leased'; readonly login: C; readonly position: bigint | null }
  /** no matching login could take it: join as a guest (`anonymous`) or end with `error_code` (`fail`) */
  | { readonly kind: 'saturated'; readonly fallback: 'fail' | 'anonymous'; readonly error_code: string; readonly message: string; readonly position: bigint | null }
  /** the bot may not sign in: it has no sign-in choice, or it is not running */
  | { readonly kind: 'refused'; readonly message: string };

const saturationMessage = (platform: LoginPlatform, matching: readonly LoginCandidate[], active: number): string => {
  if (matching.length === 0) return `No ${platform} login matches the bot's ${platform}_config`;
  if (active === 0) return `None of the ${matching.length} matching ${platform} login(s) is active (invalid, of an invalid workspace, or being deleted): re-enable them with PATCH`;
  return `Every matching ${platform} login is in use (${active} active, each at its session capacity): add logins, reduce concurrency or set fallback to anonymous`;
};

/**
 * A bot starts signing in: it takes a session of the login its config names (the least-loaded active one of
 * its pool), or, when none can take it, the saturation is recorded and the bot's `fallback` decides. The
 * choice reads the read models; the lease itself is decided on the login's stream, so two bots racing for
 * the last session cannot both get it (the loser tries the next login). Asking again returns the session
 * the bot already holds.
 */
export const startSignIn = async <C extends LoginCandidate>(deps: StartSignInDeps<C>, botId: string): Promise<SignInStart<C>> => {
  const bot = await loadBot(deps.commands, botId);
  if (bot.kind !== 'present' || bot.status === 'completed' || bot.status === 'failed' || bot.status === 'scheduled' || !bot.dispatched) {
    return { kind: 'refused', message: 'Only a running bot signs in, during its own run' };
  }
  const choice = await botConfigOf(deps.commands, botId);
  if (choice === null) return { kind: 'refused', message: 'The bot has no tm_config or mt_config: it joins as a guest' };
  const { platform, login: selector, team_id } = choice;

  const candidates = await deps.logins.candidatesOf(team_id, platform);
  const held = (await deps.logins.sessionsHeldBy(botId))?.credential_ids ?? [];
  const already = candidates.find((c) => held.includes(c.credential_id));
  if (already) return { kind: 'leased', login: already, position: null };

  const matching = matchingLogins(candidates, selector);
  for (const candidate of loginsInOrderOfChoice(matching)) {
    const leased = await handleLoginCommand(deps.commands, platform, candidate.credential_id, { type: 'LeaseLogin', bot_id: botId, now: deps.commands.clock().toISOString() });
    // Lost a race for its last session, or it changed meanwhile: the next one.
    if (E.isLeft(leased)) continue;
    return { kind: 'leased', login: candidate, position: leased.right.position };
  }

  const active = matching.filter(isActiveLogin).length;
  const message = saturationMessage(platform, matching, active);
  const recorded = await recordSaturation(deps.commands, {
    type: 'RecordSaturation',
    team_id,
    platform,
    bot_id: botId,
    credential_id: selector.email_group === null ? selector.credential_id : null,
    email_group: selector.email_group,
    fallback: selector.fallback,
    logins: matching.length,
    logins_active: active,
    now: deps.commands.clock().toISOString(),
  });
  const position = E.isRight(recorded) ? recorded.right.position : null;
  return { kind: 'saturated', fallback: selector.fallback, error_code: loginUnavailableCode(platform), message, position };
};
