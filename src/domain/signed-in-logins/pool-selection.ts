import { toMillis } from '../codec-helpers';
import type { CredentialState } from './login-platform';

/** A login as the pool sees it when a bot asks for one (from the read models: exact after any restart). */
export interface LoginCandidate {
  readonly credential_id: string;
  readonly email_group: string | null;
  readonly state: CredentialState;
  readonly workspace_state: CredentialState;
  /** asked to be deleted: it takes no new session */
  readonly deleting: boolean;
  readonly sessions: number;
  readonly capacity: number;
  readonly last_used_at: string | null;
}

/** What a bot's tm_config / mt_config asks for. */
export interface LoginSelector {
  readonly credential_id: string | null;
  readonly email_group: string | null;
}

/**
 * The logins a selector names. The spec: `email_group` takes priority over `credential_id`, so a pool is
 * the logins of that group whatever the pin says; a pin alone names one login; neither names every login
 * of the team on the platform (docs/decisions.md "Issue 20"). Groups compare without case (email addresses).
 */
export const matchingLogins = <C extends LoginCandidate>(candidates: readonly C[], selector: LoginSelector): C[] => {
  if (selector.email_group !== null) {
    const group = selector.email_group.toLowerCase();
    return candidates.filter((c) => c.email_group !== null && c.email_group.toLowerCase() === group);
  }
  if (selector.credential_id !== null) return candidates.filter((c) => c.credential_id === selector.credential_id);
  return [...candidates];
};

/** Active: the login and its workspace are `active` and it is not being deleted. */
export const isActiveLogin = (c: LoginCandidate): boolean => c.state === 'active' && c.workspace_state === 'active' && !c.deleting;

const lastUsedMillis = (c: LoginCandidate): number => (c.last_used_at === null ? -Infinity : toMillis(c.last_used_at));

/**
 * The logins that can take a session, best first: the least loaded (fewest sessions), then the one used
 * longest ago (never used first), then by id so that the order is total. The first whose lease succeeds
 * wins; the others are tried when a lease loses a race.
 */
export const loginsInOrderOfChoice = <C extends LoginCandidate>(matching: readonly C[]): C[] =>
  matching
    .filter((c) => isActiveLogin(c) && c.sessions < c.capacity)
    .sort((a, b) => a.sessions - b.sessions || lastUsedMillis(a) - lastUsedMillis(b) || (a.credential_id < b.credential_id ? -1 : a.credential_id > b.credential_id ? 1 : 0));
