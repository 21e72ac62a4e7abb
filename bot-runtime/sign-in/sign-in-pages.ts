/**
 * The sign-in pages the bot goes through, as data: Microsoft's for an organisation account and Google's
 * account sign-in that single sign-on sends to our identity provider. Selectors and texts of the real
 * pages (login.microsoftonline.com's `loginfmt`/`passwd`/`idSIButton9`/`KmsiCheckboxField`, Google's
 * `identifierId`/`identifierNext`), which the sandbox's replicas reproduce.
 */

export const microsoftSignIn = {
  host: 'login.microsoftonline.com',
  /** the Teams web client's own sign-in: it comes back to Teams with the session */
  authorizeUrl: (email: string, backTo: string) =>
    `https://login.microsoftonline.com/common/oauth2/authorize?client_id=5e3ce6c0-2b1f-4285-8d4b-75ee78787346&response_type=code` +
    `&redirect_uri=${encodeURIComponent(backTo)}&login_hint=${encodeURIComponent(email)}`,
  email: 'input[name="loginfmt"]',
  password: 'input[name="passwd"]',
  submit: '#idSIButton9',
  usernameError: '#usernameError',
  passwordError: '#passwordError',
  staySignedIn: '#KmsiCheckboxField',
  /** texts of pages that end the sign-in: the account is locked, or a second factor is asked for */
  lockedTexts: ['Your account has been locked', 'Your account is locked', "You've tried to sign in too many times"],
  mfaSelectors: ['#idDiv_SAOTCAS_Title', 'input[name="otc"]', '#idDiv_SAASDS_Title'],
  mfaTexts: ['Approve sign in request', 'Verify your identity', 'Enter code', 'More information required'],
} as const;

export const googleSignIn = {
  host: 'accounts.google.com',
  identifierUrl: (email: string, continueTo: string) =>
    `https://accounts.google.com/v3/signin/identifier?continue=${encodeURIComponent(continueTo)}&Email=${encodeURIComponent(email)}&flowName=GlifWebSignIn`,
  email: 'input#identifierId, input[type="email"][name="identifier"]',
  next: '#identifierNext',
  notFoundTexts: ["Couldn't find your Google Account"],
  /** the account signs in with a Google password: the domain's SSO profile does not send it to us */
  passwordTexts: ['Enter your password'],
  /** Google refused the SAML response (certificate, or a misconfigured SSO profile) */
  samlErrorTexts: ['could not parse the login request', 'This account cannot be accessed'],
} as const;

/** Our identity provider's pages (src/http/signed-in-logins/sso-pages.ts). */
export const ourIdentityProvider = {
  credential: 'input[name="bot_credential"]',
  refused: '[data-sso="refused"]',
} as const;
