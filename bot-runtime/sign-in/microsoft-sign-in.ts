/**
 * Signs in with an organisation account on Microsoft's pages before a Teams meeting: email, "Next",
 * password, "Sign in", "Stay signed in?" Yes, then back to Teams with the session. The pages that end
 * the sign-in are recognised and named (unknown account, wrong password, locked account, MFA asked for);
 * a sign-in that does not finish in time is a timeout. The password is typed, never logged.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { SignInResult } from '../../contract/bot-contract';
import { clickOn, hasAnyText, pageFacts, sleep, typeInto } from './page-facts';
import { microsoftSignIn as ms } from './sign-in-pages';

export interface SignInOptions {
  readonly timeoutMs: number;
  readonly log: BotLog;
  /** the run is ending: give up at once */
  readonly ended: () => boolean;
}

const failed = (kind: Exclude<SignInResult, { ok: true }>['kind'], message: string): SignInResult => ({ ok: false, kind, message });

export const signInWithMicrosoft = async (page: Page, account: { email: string; password: string }, backTo: string, options: SignInOptions): Promise<SignInResult> => {
  const deadline = Date.now() + options.timeoutMs;
  const backHost = new URL(backTo).hostname;
  try {
    await page.goto(ms.authorizeUrl(account.email, backTo), { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
  } catch (err) {
    return failed('timeout', `Microsoft's sign-in page could not be loaded: ${(err as Error).message}`);
  }
  const steps = { email: false, password: false, staySignedIn: false };
  const selectors = [ms.email, ms.password, ms.usernameError, ms.passwordError, ms.staySignedIn, ...ms.mfaSelectors];
  while (Date.now() < deadline && !options.ended()) {
    const facts = await pageFacts(page, selectors);
    if (facts === null) {
      await sleep(200);
      continue;
    }
    const [email, password, usernameError, passwordError, staySignedIn, ...mfa] = facts.visible;
    if (facts.host === backHost) return { ok: true };
    if (usernameError) return failed('account_not_found', `Microsoft does not know the account ${account.email}: "${ms.usernameError}" shown`);
    if (passwordError) return failed('wrong_password', 'Microsoft refused the password: "Your account or password is incorrect."');
    const locked = hasAnyText(facts, ms.lockedTexts);
    if (locked) return failed('account_locked', `Microsoft says the account is locked: "${locked}"`);
    const factor = hasAnyText(facts, ms.mfaTexts);
    if (factor || mfa.some(Boolean)) return failed('mfa_required', `Microsoft asks for a second factor the bot cannot give${factor ? `: "${factor}"` : ''}`);
    if (staySignedIn && !steps.staySignedIn) {
      steps.staySignedIn = true;
      options.log.info('microsoft sign-in: staying signed in');
      await clickOn(page, ms.submit).catch(() => false);
    } else if (password && !steps.password) {
      steps.password = true;
      options.log.info('microsoft sign-in: password');
      await typeInto(page, ms.password, account.password);
      await clickOn(page, ms.submit).catch(() => false);
    } else if (email && !steps.email) {
      steps.email = true;
      options.log.info('microsoft sign-in: account');
      await typeInto(page, ms.email, account.email);
      await clickOn(page, ms.submit).catch(() => false);
    }
    await sleep(250);
  }
  return failed('timeout', `The Microsoft sign-in did not finish within ${Math.round(options.timeoutMs / 1000)} s`);
};
