/**
 * Microsoft's sign-in on login.microsoftonline.com, as the real pages go for an organisation account:
 * the email page (`input[name="loginfmt"]`, "Next" `#idSIButton9`), the password page
 * (`input[name="passwd"]`, "Sign in" `#idSIButton9`, `#passwordError` on a wrong password), the locked
 * account and MFA ("Approve sign in request") pages, "Stay signed in?" (`#KmsiCheckboxField`, Yes
 * `#idSIButton9`, No `#idBtn_Back`), then back to `redirect_uri` (a Teams host) with a one-time `code`
 * the Teams replica turns into the session (teams/flavour.ts `/go`). Any GET on the host is the email
 * page, so a guest sent to sign in (the Teams walls) sees the same form.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readForm, redirect, sendHtml, sendJson } from '../http-util';
import { escapeHtml, htmlDocument } from '../pages/replica-page';
import { domainOfEmail, type IdentityRegistry } from './identity-registry';

export const MICROSOFT_LOGIN_HOST = 'login.microsoftonline.com';
const TEAMS_HOSTS = ['teams.microsoft.com', 'teams.live.com', 'teams.cloud.microsoft'];

export const microsoftTexts = {
  signIn: 'Sign in',
  enterPassword: 'Enter password',
  usernameError: 'This username may be incorrect. Make sure you typed it correctly. Otherwise, contact your admin.',
  passwordError: "Your account or password is incorrect. If you don't remember your password, reset it now.",
  locked: 'Your account has been locked. Contact your support person to unlock it, then try again.',
  approve: 'Approve sign in request',
  approveHint: 'Open your Authenticator app, and enter the number shown to sign in.',
  staySignedIn: 'Stay signed in?',
  badRedirect: "We couldn't sign you in: the application's reply address is not a Teams address.",
} as const;

const style = `body { font-family: "Segoe UI", sans-serif; background: #f2f2f2; } main { max-width: 440px; margin: 64px auto; background: #fff; padding: 44px; display: flex; flex-direction: column; gap: 12px; } .error { color: #e81123; }`;
const shell = (title: string, body: string) => htmlDocument(title, style, `<main>${body}</main>`);
const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

const emailPage = (redirectUri: string, error: string | null = null, hint = '') =>
  shell(
    'Sign in to your account',
    `<h1 id="loginHeader">${microsoftTexts.signIn}</h1><form method="post" action="/common/login">${hidden('step', 'email')}${hidden('redirect_uri', redirectUri)}` +
      `${error ? `<div id="usernameError" class="error" role="alert">${escapeHtml(error)}</div>` : ''}` +
      `<input type="email" name="loginfmt" id="i0116" value="${escapeHtml(hint)}" placeholder="Email, phone, or Skype" aria-label="Enter your email, phone, or Skype.">` +
      `<input type="submit" id="idSIButton9" value="Next"></form>`,
  );

const passwordPage = (redirectUri: string, email: string, error: string | null = null) =>
  shell(
    'Sign in to your account',
    `<div id="displayName">${escapeHtml(email)}</div><h1 id="loginHeader">${microsoftTexts.enterPassword}</h1>` +
      `<form method="post" action="/common/login">${hidden('step', 'password')}${hidden('redirect_uri', redirectUri)}${hidden('loginfmt', email)}` +
      `${error ? `<div id="passwordError" class="error" role="alert">${escapeHtml(error)}</div>` : ''}` +
      `<input type="password" name="passwd" id="i0118" placeholder="Password" aria-label="Enter the password for ${escapeHtml(email)}">` +
      `<input type="submit" id="idSIButton9" value="Sign in"></form>`,
  );

const lockedPage = () => shell('Sign in to your account', `<h1 id="loginHeader">Your account is locked</h1><div id="idTD_Error" class="error">${microsoftTexts.locked}</div>`);

const approvePage = () =>
  shell('Sign in to your account', `<div id="idDiv_SAOTCAS_Title" role="heading">${microsoftTexts.approve}</div><div id="idDiv_SAOTCAS_Description">${microsoftTexts.approveHint}</div>`);

const kmsiPage = (redirectUri: string, code: string) =>
  shell(
    'Sign in to your account',
    `<div role="heading">${microsoftTexts.staySignedIn}</div><p>Do this to reduce the number of times you are asked to sign in.</p>` +
      `<form method="post" action="/kmsi">${hidden('redirect_uri', redirectUri)}${hidden('code', code)}` +
      `<label><input type="checkbox" id="KmsiCheckboxField" name="DontShowAgain"> Don't show this again</label>` +
      `<input type="submit" id="idBtn_Back" name="answer" value="No"> <input type="submit" id="idSIButton9" name="answer" value="Yes"></form>`,
  );

/** The reply address must be a Teams host: the sign-in never hands a session to anyone else. */
const teamsRedirect = (raw: string | null): string | null => {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && TEAMS_HOSTS.includes(url.hostname) ? url.toString() : null;
  } catch {
    return null;
  }
};

export async function handleMicrosoftLogin(identity: IdentityRegistry, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  if (req.method !== 'POST') {
    sendHtml(res, 200, emailPage(query.get('redirect_uri') ?? '', null, query.get('login_hint') ?? ''));
    return;
  }
  // Only the replica's own forms post here (Chromium may post to Microsoft's other endpoints itself).
  if (path !== '/common/login' && path !== '/kmsi') {
    sendJson(res, 404, { error: 'not a sign-in step of the replica' });
    return;
  }
  const form = await readForm(req);
  const redirectUri = teamsRedirect(form.redirect_uri ?? null);
  if (redirectUri === null) {
    sendHtml(res, 400, shell('Sign in to your account', `<div class="error" role="alert">${microsoftTexts.badRedirect}</div>`));
    return;
  }
  if (path === '/kmsi') {
    // The code stands for the signed-in account until the Teams web client redeems it.
    const target = new URL(redirectUri);
    target.searchParams.set('code', form.code ?? '');
    redirect(res, target.toString());
    return;
  }
  const email = (form.loginfmt ?? '').trim().toLowerCase();
  const account = identity.microsoftAccounts.get(email);
  if (!account) {
    identity.record({ platform: 'tm', email, outcome: 'unknown_account' });
    sendHtml(res, 200, emailPage(redirectUri, microsoftTexts.usernameError, email));
    return;
  }
  if (form.step !== 'password') {
    sendHtml(res, 200, passwordPage(redirectUri, account.email));
    return;
  }
  if (account.state === 'locked') {
    identity.record({ platform: 'tm', email, outcome: 'locked' });
    sendHtml(res, 200, lockedPage());
    return;
  }
  if (form.passwd !== account.password) {
    identity.record({ platform: 'tm', email, outcome: 'wrong_password' });
    sendHtml(res, 200, passwordPage(redirectUri, account.email, microsoftTexts.passwordError));
    return;
  }
  if (account.mfa) {
    identity.record({ platform: 'tm', email, outcome: 'mfa_required' });
    sendHtml(res, 200, approvePage());
    return;
  }
  identity.record({ platform: 'tm', email, outcome: 'signed_in' });
  const code = identity.issueCode({ platform: 'tm', email: account.email, display_name: account.display_name, organisation: domainOfEmail(account.email) });
  sendHtml(res, 200, kmsiPage(redirectUri, code));
}
