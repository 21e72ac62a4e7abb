import * as t from 'io-ts';
import { eventCodec, IsoInstant } from '../codec-helpers';
import { LoginPlatform } from './login-platform';

/**
 * A bot asked for a login and none could take it: every matching login was full, or none was active.
 * `selector`: what the bot asked for (a pinned login, a pool, or any login of the team); `fallback`: what
 * the bot does instead (`fail`: it ends with the platform's LOGIN_UNAVAILABLE code; `anonymous`: it joins as
 * a guest). Recorded on the team's pool stream of the platform.
 */
export const LoginSaturated = eventCodec('LoginSaturated', {
  team_id: t.string,
  platform: LoginPlatform,
  bot_id: t.string,
  credential_id: t.union([t.string, t.null]),
  email_group: t.union([t.string, t.null]),
  fallback: t.keyof({ fail: null, anonymous: null }),
  /** matching logins that exist, and how many of them were active */
  logins: t.number,
  logins_active: t.number,
  at: IsoInstant,
});

/** The pool stream holds only saturations (so far). */
export const PoolEvent = LoginSaturated;
export type PoolEvent = t.TypeOf<typeof PoolEvent>;
