import { randomBytes } from 'node:crypto';

/** An account of a provider fake: whose tokens they are and which calendars they reach. */
export interface FakeAccount {
  readonly email: string;
  readonly name: string;
}

interface RefreshToken {
  readonly clientId: string;
  readonly account: FakeAccount;
  revoked: boolean;
}

interface AccessToken {
  readonly account: FakeAccount;
  readonly expiresAtMs: number;
}

export type RefreshResult =
  | { readonly ok: true; readonly accessToken: string; readonly expiresIn: number; readonly refreshToken: string | null }
  | { readonly ok: false; readonly status: number; readonly error: 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_request'; readonly kind: 'unknown_client' | 'bad_secret' | 'revoked' | 'unknown_token' | 'other' };

/**
 * The authorisation server part of a provider fake: registered OAuth clients, refresh tokens issued to
 * accounts (revocable), and the access tokens the refresh-token grant hands out (expirable).
 */
export class FakeOAuth {
  private readonly clients = new Map<string, string>();
  private readonly refreshTokens = new Map<string, RefreshToken>();
  private readonly accessTokens = new Map<string, AccessToken>();
  /** grants answered, successful or not */
  refreshes = 0;

  constructor(
    private readonly now: () => number,
    private readonly options: { readonly accessTokenPrefix: string; readonly refreshTokenPrefix: string; readonly rotateRefreshTokens: boolean },
  ) {}

  registerClient(clientId: string, secret: string): void {
    this.clients.set(clientId, secret);
  }

  issueRefreshToken(clientId: string, account: FakeAccount): string {
    const token = `${this.options.refreshTokenPrefix}${randomBytes(24).toString('base64url')}`;
    this.refreshTokens.set(token, { clientId, account, revoked: false });
    return token;
  }

  /** The user withdrew the app's access: the refresh token (and every token rotated from it) stops working. */
  revoke(refreshToken: string): void {
    const entry = this.refreshTokens.get(refreshToken);
    if (!entry) throw new Error('no such refresh token');
    for (const other of this.refreshTokens.values()) if (other.account === entry.account && other.clientId === entry.clientId) other.revoked = true;
    for (const [token, access] of this.accessTokens) if (access.account === entry.account) this.accessTokens.delete(token);
  }

  /** Every access token handed out so far expires now (the next API call gets 401 and the client refreshes). */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  refresh(grantType: string | null, clientId: string | null, secret: string | null, refreshToken: string | null): RefreshResult {
    this.refreshes += 1;
    if (grantType !== 'refresh_token') return { ok: false, status: 400, error: 'unsupported_grant_type', kind: 'other' };
    if (!clientId || !this.clients.has(clientId)) return { ok: false, status: 401, error: 'invalid_client', kind: 'unknown_client' };
    if (this.clients.get(clientId) !== secret) return { ok: false, status: 401, error: 'invalid_client', kind: 'bad_secret' };
    if (!refreshToken) return { ok: false, status: 400, error: 'invalid_request', kind: 'other' };
    const entry = this.refreshTokens.get(refreshToken);
    if (!entry || entry.clientId !== clientId) return { ok: false, status: 400, error: 'invalid_grant', kind: 'unknown_token' };
    if (entry.revoked) return { ok: false, status: 400, error: 'invalid_grant', kind: 'revoked' };
    const accessToken = `${this.options.accessTokenPrefix}${randomBytes(24).toString('base64url')}`;
    const expiresIn = 3599;
    this.accessTokens.set(accessToken, { account: entry.account, expiresAtMs: this.now() + expiresIn * 1000 });
    const rotated = this.options.rotateRefreshTokens ? this.issueRefreshToken(clientId, entry.account) : null;
    return { ok: true, accessToken, expiresIn, refreshToken: rotated };
  }

  accountOf(authorization: string | undefined): FakeAccount | null {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const entry = token ? this.accessTokens.get(token) : undefined;
    if (!entry || entry.expiresAtMs <= this.now()) return null;
    return entry.account;
  }
}

/** A token request's form, with client credentials from the body or HTTP Basic (RFC 6749 §2.3.1). */
export const readTokenForm = (body: string, authorization: string | undefined) => {
  const form = new URLSearchParams(body);
  let clientId = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
  if (basic) {
    const [id, pass] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    clientId = decodeURIComponent(id ?? '');
    secret = decodeURIComponent(pass ?? '');
  }
  return { grantType: form.get('grant_type'), clientId, secret, refreshToken: form.get('refresh_token'), scope: form.get('scope') };
};
