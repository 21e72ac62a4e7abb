import * as t from 'io-ts';
import type { LoginPlatform } from './login-platform';

/**
 * Why a bot's sign-in did not complete, as the bot saw it on the platform's pages. Each kind says which
 * error code it is and what it says about the credentials (docs/decisions.md "Issue 20"):
 * - the account itself is refused (wrong password, locked, MFA asked for, unknown to the domain): the
 *   login turns `invalid` at once; trying it again could only lock the account or fail the same way;
 * - the platform rejects our SAML assertion (certificate or SSO profile): the mt workspace turns
 *   `invalid`, since every login of it would fail the same way;
 * - the sign-in did not finish in time: the login turns `invalid` only after TIMEOUTS_BEFORE_INVALID in
 *   a row, since one slow page proves nothing about the account.
 */
export const SignInFailureKind = t.keyof({
  wrong_password: null,
  account_locked: null,
  mfa_required: null,
  account_not_found: null,
  saml_rejected: null,
  timeout: null,
});
export type SignInFailureKind = t.TypeOf<typeof SignInFailureKind>;

export type FailureEffect = 'login_invalid' | 'workspace_invalid' | 'counted_timeout';

export const TIMEOUTS_BEFORE_INVALID = 2;

const effects: Readonly<Record<SignInFailureKind, FailureEffect>> = {
  wrong_password: 'login_invalid',
  account_locked: 'login_invalid',
  mfa_required: 'login_invalid',
  account_not_found: 'login_invalid',
  saml_rejected: 'workspace_invalid',
  timeout: 'counted_timeout',
};

export const effectOf = (kind: SignInFailureKind): FailureEffect => effects[kind];

/**
 * The error code of a failed sign-in. mt: the spec's two (an account Google does not know is one of the
 * account problems the spec puts under MT_LOGIN_FAILED_TIMEOUT). tm: the spec names none; ours say which
 * page the bot met. A tm bot whose sign-in failed goes on as a guest (the spec), so its code is recorded on
 * the login, not as the bot's end.
 */
export const signInFailureCode = (platform: LoginPlatform, kind: SignInFailureKind): string => {
  if (platform === 'mt') return kind === 'saml_rejected' ? 'MT_LOGIN_FAILED_SAML_REJECTED' : 'MT_LOGIN_FAILED_TIMEOUT';
  switch (kind) {
    case 'wrong_password':
      return 'TM_LOGIN_FAILED_WRONG_PASSWORD';
    case 'account_locked':
      return 'TM_LOGIN_FAILED_ACCOUNT_LOCKED';
    case 'mfa_required':
      return 'TM_LOGIN_FAILED_MFA_REQUIRED';
    case 'account_not_found':
      return 'TM_LOGIN_FAILED_ACCOUNT_NOT_FOUND';
    case 'saml_rejected':
    case 'timeout':
      return 'TM_LOGIN_FAILED_TIMEOUT';
  }
};

/** No matching login had room, or none was active, and the bot's `fallback` is `fail`. */
export const loginUnavailableCode = (platform: LoginPlatform): string => (platform === 'mt' ? 'MT_LOGIN_UNAVAILABLE' : 'TM_LOGIN_UNAVAILABLE');
