/**
 * A signed-in bot's sign-in, before it opens its meeting: it asks the service what to sign in with (which
 * leases a session of a login), signs in on the platform's pages, and reports how it went. What follows
 * is the spec's: a tm sign-in that failed falls back to a guest join under `bot_name`; an mt one ends the
 * run with its code; no login with room means the bot's `fallback` (a guest, or the end with the
 * platform's LOGIN_UNAVAILABLE code).
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { BotJob, SignInResult } from '../../contract/bot-contract';
import type { EndCause } from '../end-codes';
import { signInWithGoogle } from './google-sign-in';
import { signInWithMicrosoft } from './microsoft-sign-in';
import type { SignInService } from './sign-in-service';

export type SignInVerdict =
  | { readonly kind: 'signed_in' }
  | { readonly kind: 'guest'; readonly reason: string }
  | { readonly kind: 'end'; readonly cause: EndCause };

/** Where Microsoft's sign-in comes back to: the Teams web client, which keeps the session. */
export const TEAMS_SIGN_IN_RETURN = 'https://teams.microsoft.com/go';

export interface SignInFlowOptions {
  readonly timeoutMs: number;
  readonly log: BotLog;
  readonly ended: () => boolean;
}

const failedMt = (code: string | null, message: string): SignInVerdict => ({ kind: 'end', cause: { kind: 'sign_in_failed', error_code: code ?? 'MT_LOGIN_FAILED_TIMEOUT', message } });

export const signInBeforeJoining = async (
  job: BotJob,
  page: Page,
  service: SignInService,
  meetingNavigationUrl: string,
  options: SignInFlowOptions,
): Promise<SignInVerdict> => {
  const platform = job.sign_in?.platform;
  if (!platform) return { kind: 'guest', reason: 'the bot has no sign-in' };
  let answer;
  try {
    answer = await service.start();
  } catch (err) {
    const message = `The service could not hand out a login: ${(err as Error).message}`;
    return platform === 'tm' ? { kind: 'guest', reason: message } : failedMt(null, message);
  }
  if (answer.outcome === 'anonymous') return { kind: 'guest', reason: answer.message };
  if (answer.outcome === 'fail') return { kind: 'end', cause: { kind: 'sign_in_failed', error_code: answer.error_code, message: answer.error_message } };

  options.log.info(`signing in as login ${answer.credential_id} (${answer.platform})`);
  let result: SignInResult;
  try {
    result =
      answer.platform === 'tm'
        ? await signInWithMicrosoft(page, { email: answer.email, password: answer.password }, TEAMS_SIGN_IN_RETURN, options)
        : await signInWithGoogle(page, { email: answer.email, ticket: answer.sso_ticket }, meetingNavigationUrl, options);
  } catch (err) {
    result = { ok: false, kind: 'timeout', message: `The sign-in stopped: ${(err as Error).message}` };
  }
  let code: string | null = null;
  try {
    code = await service.finish(result);
  } catch (err) {
    options.log.warn(`the sign-in's outcome could not be reported: ${(err as Error).message}`);
  }
  if (result.ok) {
    options.log.info('signed in');
    return { kind: 'signed_in' };
  }
  options.log.warn(`sign-in failed (${code ?? result.kind}): ${result.message}`);
  return answer.platform === 'tm' ? { kind: 'guest', reason: result.message } : failedMt(code, result.message);
};
