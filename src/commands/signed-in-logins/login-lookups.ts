import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import type { LoginCandidate } from '../../domain/signed-in-logins/pool-selection';

/** The sessions a bot holds now (of logins of one platform). */
export interface HeldSessions {
  readonly platform: LoginPlatform;
  readonly credential_ids: readonly string[];
}

/** The login a bot signs in with (the first it holds a session of). */
export interface HeldLogin {
  readonly platform: LoginPlatform;
  readonly credential_id: string;
  readonly workspace_id: string;
}

/**
 * What the sign-in commands need to know of the read models (the pool's loads are a projection of the
 * logins' events, exact after any restart), given by their caller (src/projections/signed-in-logins/login-queries.ts):
 * a command decides on the streams, never on a store it reaches by itself.
 */
export interface LoginLookups<C extends LoginCandidate = LoginCandidate> {
  /** the team's logins of the platform that are not deleted, with their workspace's state */
  readonly candidatesOf: (teamId: string, platform: LoginPlatform) => Promise<readonly C[]>;
  readonly sessionsHeldBy: (botId: string) => Promise<HeldSessions | null>;
  readonly heldLoginOf: (botId: string) => Promise<HeldLogin | null>;
}
