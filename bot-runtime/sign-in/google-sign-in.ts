/**
 * Signs in to Google with an account of a Google Workspace domain whose single sign-on goes to our
 * identity provider: the account's email on Google's sign-in page, then, on our identity provider's page,
 * the one-time credential the service handed this bot; the signed assertion goes back to Google, which
 * sends the browser on to the meeting. Google's refusals are recognised and named: an account it does
 * not know, a SAML response it rejects (certificate, SSO profile), an account that signs in with a Google
 * password (its SSO profile does not point at us). The credential is typed, never logged.
 */
import type { Page } from 'puppeteer-core';
import type { SignInResult } from '../../contract/bot-contract';
import type { SignInOptions } from './microsoft-sign-in';
import { clickOn, hasAnyText, pageFacts, sleep, typeInto } from './page-facts';
import { googleSignIn as google, ourIdentityProvider as idp } from './sign-in-pages';

const failed = (kind: Exclude<SignInResult, { ok: true }>['kind'], message: string): SignInResult => ({ ok: false, kind, message });

export const signInWithGoogle = async (page: Page, account: { email: string; ticket: string }, continueTo: string, options: SignInOptions): Promise<SignInResult> => {
  const deadline = Date.now() + options.timeoutMs;
  const backHost = new URL(continueTo).hostname;
  try {
    await page.goto(google.identifierUrl(account.email, continueTo), { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
  } catch (err) {
    return failed('timeout', `Google's sign-in page could not be loaded: ${(err as Error).message}`);
  }
  const steps = { email: false, credential: false };
  while (Date.now() < deadline && !options.ended()) {
    const facts = await pageFacts(page, [google.email, idp.credential, idp.refused]);
    if (facts === null) {
      await sleep(200);
      continue;
    }
    const [email, credential, refused] = facts.visible;
    if (facts.host === backHost) return { ok: true };
    if (hasAnyText(facts, google.notFoundTexts)) return failed('account_not_found', `Google does not know the account ${account.email}`);
    const samlError = hasAnyText(facts, google.samlErrorTexts);
    if (samlError) return failed('saml_rejected', `Google rejected the identity provider's SAML response: "${samlError}"`);
    if (facts.host === google.host && hasAnyText(facts, google.passwordTexts)) {
      return failed('saml_rejected', `Google asks for ${account.email}'s password: the domain's SSO profile does not send its accounts to this service`);
    }
    if (refused) return failed('timeout', `Our identity provider refused the sign-in: ${facts.text.slice(0, 300)}`);
    if (credential && !steps.credential) {
      steps.credential = true;
      options.log.info('google sign-in: one-time credential at the identity provider');
      await typeInto(page, idp.credential, account.ticket);
      await page.keyboard.press('Enter');
    } else if (email && !steps.email) {
      steps.email = true;
      options.log.info('google sign-in: account');
      await typeInto(page, google.email, account.email);
      await clickOn(page, google.next).catch(() => false);
    }
    await sleep(250);
  }
  return failed('timeout', `The Google sign-in did not finish within ${Math.round(options.timeoutMs / 1000)} s`);
};
