/**
 * Google's account sign-in on accounts.google.com for Google Workspace domains with single sign-on: the
 * identifier page ("Sign in", "Use your Google Account", `#identifierId`, "Next" `#identifierNext`); an
 * account of a domain whose SSO profile points at an identity provider goes there with a SAML
 * AuthnRequest (HTTP-Redirect); the IdP's signed Response comes back to the assertion consumer service
 * https://www.google.com/a/<domain>/acs, which verifies it with the certificate entered in the domain's
 * profile (@node-saml/node-saml: a service-provider implementation other than the one our IdP uses), then
 * the browser is signed in on google.com (cookie `SID`) and sent on to `continue` (the RelayState).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SAML } from '@node-saml/node-saml';
import { readForm, redirect, sendHtml, sendJson } from '../http-util';
import { escapeHtml, htmlDocument } from '../pages/replica-page';
import { domainOfEmail, type GoogleSsoProfile, type IdentityRegistry } from './identity-registry';

export const GOOGLE_ACS_HOST = 'www.google.com';
export const GOOGLE_SESSION_COOKIE = 'SID';

export const googleTexts = {
  signIn: 'Sign in',
  useAccount: 'Use your Google Account',
  notFound: "Couldn't find your Google Account",
  enterPassword: 'Enter your password',
  samlError: 'This account cannot be accessed because we could not parse the login request.',
} as const;

const style = `body { font-family: "Google Sans", Roboto, Arial, sans-serif; } main { max-width: 450px; margin: 64px auto; display: flex; flex-direction: column; gap: 12px; } .error { color: #d93025; }`;
const shell = (title: string, body: string) => htmlDocument(title, style, `<main>${body}</main>`);

const acsOf = (domain: string) => `https://${GOOGLE_ACS_HOST}/a/${domain}/acs`;

const identifierPage = (continueTo: string, error: string | null = null, typed = '') =>
  shell(
    'Sign in - Google Accounts',
    `<h1>${googleTexts.signIn}</h1><p>${googleTexts.useAccount}</p><form method="post" action="/v3/signin/identifier">` +
      `<input type="hidden" name="continue" value="${escapeHtml(continueTo)}">` +
      `<input type="email" id="identifierId" name="identifier" value="${escapeHtml(typed)}" aria-label="Email or phone" autocomplete="username">` +
      `${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}<button type="submit" id="identifierNext">Next</button></form>`,
  );

const passwordPage = (email: string) =>
  shell('Sign in - Google Accounts', `<h1>${escapeHtml(email)}</h1><p>${googleTexts.enterPassword}</p><input type="password" name="Passwd" aria-label="Enter your password">`);

const samlErrorPage = () => shell('Error - Google Workspace', `<h1>Google Workspace</h1><p class="error" data-error="saml">${googleTexts.samlError}</p>`);

/** Google as the service provider of `domain`, trusting the certificate entered in its SSO profile. */
const serviceProvider = (domain: string, sso: GoogleSsoProfile) =>
  new SAML({
    entryPoint: sso.sign_in_url,
    issuer: 'google.com',
    callbackUrl: acsOf(domain),
    idpCert: sso.certificate,
    audience: 'google.com',
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: true,
    disableRequestedAuthnContext: true,
  });

/** Where a sign-in may continue to: a Google host, as Google's own `continue` check does. */
const googleContinue = (raw: string | null | undefined): string => {
  try {
    const url = new URL(raw ?? '');
    if (url.protocol === 'https:' && (url.hostname === 'google.com' || url.hostname.endsWith('.google.com'))) return url.toString();
  } catch {
    // not a URL: the default below
  }
  return 'https://myaccount.google.com/';
};

export async function handleGoogleAccounts(identity: IdentityRegistry, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  if (req.method !== 'POST') {
    sendHtml(res, 200, identifierPage(googleContinue(query.get('continue')), null, query.get('Email') ?? ''));
    return;
  }
  // Only the identifier step is a form of this replica (Chromium itself posts to Google's account endpoints).
  if (path !== '/v3/signin/identifier') {
    sendJson(res, 404, { error: 'not a sign-in step of the replica' });
    return;
  }
  const form = await readForm(req);
  const continueTo = googleContinue(form.continue);
  const email = (form.identifier ?? '').trim().toLowerCase();
  const account = identity.googleAccounts.get(email);
  const domain = identity.googleDomains.get(domainOfEmail(email));
  if (!account || !domain) {
    identity.record({ platform: 'mt', email, outcome: 'unknown_account' });
    sendHtml(res, 200, identifierPage(continueTo, googleTexts.notFound, email));
    return;
  }
  if (domain.sso === null) {
    sendHtml(res, 200, passwordPage(account.email));
    return;
  }
  // SP-initiated single sign-on: the AuthnRequest to the profile's sign-in page, HTTP-Redirect binding.
  redirect(res, await serviceProvider(domain.domain, domain.sso).getAuthorizeUrlAsync(continueTo, undefined, {}));
}

/** POST https://www.google.com/a/<domain>/acs: the identity provider's Response, verified before anyone is signed in. */
export async function handleGoogleAcs(identity: IdentityRegistry, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const m = /^\/a\/([a-z0-9.-]+)\/acs$/.exec(path);
  if (!m || req.method !== 'POST') return false;
  const domain = identity.googleDomains.get(m[1]!);
  const form = await readForm(req);
  if (!domain?.sso || typeof form.SAMLResponse !== 'string') {
    sendHtml(res, 400, samlErrorPage());
    return true;
  }
  let email: string;
  try {
    const { profile } = await serviceProvider(domain.domain, domain.sso).validatePostResponseAsync({ SAMLResponse: form.SAMLResponse, ...(form.RelayState ? { RelayState: form.RelayState } : {}) });
    email = (profile?.nameID ?? '').toLowerCase();
  } catch (err) {
    identity.record({ platform: 'mt', email: '', outcome: 'saml_rejected', detail: (err as Error).message });
    sendHtml(res, 403, samlErrorPage());
    return true;
  }
  const account = identity.googleAccounts.get(email);
  if (!account || domainOfEmail(email) !== domain.domain) {
    identity.record({ platform: 'mt', email, outcome: 'unknown_account', detail: 'asserted by the identity provider' });
    sendHtml(res, 403, samlErrorPage());
    return true;
  }
  identity.record({ platform: 'mt', email, outcome: 'signed_in' });
  const token = identity.openSession({ platform: 'mt', email: account.email, display_name: account.display_name, organisation: domain.domain });
  redirect(res, googleContinue(form.RelayState), { 'set-cookie': `${GOOGLE_SESSION_COOKIE}=${token}; Domain=google.com; Path=/; Secure; HttpOnly; SameSite=None` });
  return true;
}
