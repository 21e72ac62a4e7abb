/**
 * The sandbox's identities, as the real platforms keep them: Microsoft organisation accounts (their
 * password, locked or not, MFA or not), Google Workspace domains with their SSO profile (where the
 * identity provider is and the certificate entered for it) and their accounts, and the browser sessions
 * of signed-in people. Set up through the control API (identity-control.ts); read by the replicas.
 */
import { randomBytes } from 'node:crypto';
import { SandboxError } from '../meeting-state';

export interface MicrosoftAccount {
  readonly email: string;
  readonly password: string;
  readonly display_name: string;
  /** locked: the sign-in says so after the password; mfa: it asks for a second factor a bot cannot give */
  readonly state: 'active' | 'locked';
  readonly mfa: boolean;
}

export interface GoogleSsoProfile {
  /** the identity provider's sign-in page URL */
  readonly sign_in_url: string;
  /** the verification certificate entered for it (PEM) */
  readonly certificate: string;
}

export interface GoogleDomain {
  readonly domain: string;
  /** null: the domain's accounts sign in with a Google password */
  readonly sso: GoogleSsoProfile | null;
}

export interface GoogleAccount {
  readonly email: string;
  readonly display_name: string;
}

/** A signed-in browser: who it is, and the organisation (domain) that owns the account. */
export interface Identity {
  readonly platform: 'tm' | 'mt';
  readonly email: string;
  readonly display_name: string;
  readonly organisation: string;
}

export interface SignInRecord {
  readonly at: number;
  readonly platform: 'tm' | 'mt';
  readonly email: string;
  /** signed_in, or what stopped it: wrong_password, locked, mfa_required, unknown_account, saml_rejected */
  readonly outcome: string;
  readonly detail?: string;
}

export const domainOfEmail = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

const EMAIL = /^[^\s@]+@[a-z0-9.-]+\.[a-z]{2,}$/i;

const text = (body: Record<string, unknown>, key: string, max = 256): string => {
  const value = body[key];
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw new SandboxError(400, `${key} must be a non-empty string of at most ${max} characters`);
  return value;
};
const email = (body: Record<string, unknown>, key = 'email'): string => {
  const value = text(body, key);
  if (!EMAIL.test(value)) throw new SandboxError(400, `${key} must be an email address`);
  return value.toLowerCase();
};

export class IdentityRegistry {
  readonly microsoftAccounts = new Map<string, MicrosoftAccount>();
  readonly googleDomains = new Map<string, GoogleDomain>();
  readonly googleAccounts = new Map<string, GoogleAccount>();
  readonly signIns: SignInRecord[] = [];
  private readonly sessions = new Map<string, Identity>();
  /** one-time codes from the Microsoft sign-in to the Teams web client */
  private readonly codes = new Map<string, Identity>();

  constructor(private readonly now: () => number) {}

  /** Adds or replaces an account (control API). */
  putMicrosoftAccount(body: Record<string, unknown>): MicrosoftAccount {
    const state = body.state ?? 'active';
    if (state !== 'active' && state !== 'locked') throw new SandboxError(400, 'state must be active or locked');
    if (body.mfa !== undefined && typeof body.mfa !== 'boolean') throw new SandboxError(400, 'mfa must be a boolean');
    const account: MicrosoftAccount = { email: email(body), password: text(body, 'password', 1024), display_name: text(body, 'display_name', 100), state, mfa: body.mfa === true };
    this.microsoftAccounts.set(account.email, account);
    return account;
  }

  putGoogleDomain(body: Record<string, unknown>): GoogleDomain {
    const domain = text(body, 'domain', 253).toLowerCase();
    let sso: GoogleSsoProfile | null = null;
    if (body.sso !== undefined && body.sso !== null) {
      if (typeof body.sso !== 'object' || Array.isArray(body.sso)) throw new SandboxError(400, 'sso must be an object');
      const profile = body.sso as Record<string, unknown>;
      const certificate = text(profile, 'certificate', 16_384);
      if (!certificate.includes('BEGIN CERTIFICATE')) throw new SandboxError(400, 'sso.certificate must be a PEM certificate');
      sso = { sign_in_url: text(profile, 'sign_in_url', 2048), certificate };
    }
    const entry = { domain, sso };
    this.googleDomains.set(domain, entry);
    return entry;
  }

  putGoogleAccount(body: Record<string, unknown>): GoogleAccount {
    const account = { email: email(body), display_name: text(body, 'display_name', 100) };
    if (!this.googleDomains.has(domainOfEmail(account.email))) throw new SandboxError(400, `no Google Workspace domain ${domainOfEmail(account.email)}: add it first`);
    this.googleAccounts.set(account.email, account);
    return account;
  }

  record(entry: Omit<SignInRecord, 'at'>): void {
    this.signIns.push({ at: this.now(), ...entry });
  }

  /** A browser session for `identity`: the cookie value that stands for it. */
  openSession(identity: Identity): string {
    const token = randomBytes(24).toString('base64url');
    this.sessions.set(token, identity);
    return token;
  }

  session(token: string | null, platform: 'tm' | 'mt'): Identity | null {
    const identity = token === null ? undefined : this.sessions.get(token);
    return identity && identity.platform === platform ? identity : null;
  }

  issueCode(identity: Identity): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, identity);
    return code;
  }

  /** A code is good once. */
  redeemCode(code: string): Identity | null {
    const identity = this.codes.get(code) ?? null;
    this.codes.delete(code);
    return identity;
  }

  view() {
    return {
      microsoft_accounts: [...this.microsoftAccounts.values()].map(({ password: _password, ...shown }) => shown),
      google_domains: [...this.googleDomains.values()],
      google_accounts: [...this.googleAccounts.values()],
      sign_ins: this.signIns.map((s) => ({ ...s, at: new Date(s.at).toISOString() })),
    };
  }
}
