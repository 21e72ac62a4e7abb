import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeOAuth, readTokenForm, type FakeAccount } from './fake-oauth';
import { readBody, sendJson } from './http-kit';

/**
 * A local vc platform (Zoom), written from its public documentation: the OAuth token endpoint
 * (`POST /oauth/token`, authorization-code and refresh-token grants, client id and secret in HTTP Basic,
 * refresh tokens rotated at each use) and the REST calls the service makes (`GET /v2/users/me`,
 * `GET /v2/users/me/token?type=onbehalf&meeting_id=…`). Answers and errors in the platform's shapes:
 * OAuth `{reason, error}`, REST `{code, message}`.
 *
 * OBF tokens are minted by `mintObf`: in end-to-end tests the sandbox's vc flavour mints them (it is the
 * platform that will check them at join); alone, the fake makes opaque ones.
 */
export interface FakeVcUser {
  readonly id: string;
  readonly account_id: string;
  readonly email: string;
  readonly name: string;
}

export interface ObfRequest {
  readonly user: FakeVcUser;
  readonly client_id: string;
  readonly meeting_number: string;
}

interface Code {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly user: FakeVcUser;
  used: boolean;
}

const SCOPES = 'user:read:token user:read:user';

export class FakeVcPlatform {
  readonly oauth: FakeOAuth;
  /** requests answered, e.g. `POST /oauth/token authorization_code`, `GET /v2/users/me/token onbehalf` */
  readonly calls: string[] = [];
  /** OBF tokens handed out, with what they were for */
  readonly issuedObf: { readonly token: string; readonly request: ObfRequest }[] = [];
  private readonly users = new Map<string, FakeVcUser>();
  private readonly codes = new Map<string, Code>();
  /** which client and user a refresh token belongs to, and which client an access token was issued to (the OBF token authorises that app) */
  private readonly clientOfRefresh = new Map<string, string>();
  private readonly refreshAccounts = new Map<string, string>();
  private readonly clientOfAccess = new Map<string, string>();
  private server: http.Server | null = null;
  /** the OBF endpoint answers this status instead (a platform outage, a missing scope) */
  obfFailure: { readonly status: number; readonly body: unknown } | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly mintObf: (request: ObfRequest) => Promise<string> = async () => `obf.${randomBytes(24).toString('base64url')}`,
  ) {
    this.oauth = new FakeOAuth(now, { accessTokenPrefix: 'vc-access.', refreshTokenPrefix: 'vc-refresh.', rotateRefreshTokens: true });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** VC_OAUTH_BASE_URL */
  get oauthBaseUrl(): string {
    return this.url;
  }

  /** VC_API_BASE_URL */
  get apiBaseUrl(): string {
    return `${this.url}/v2`;
  }

  registerClient(clientId: string, secret: string): void {
    this.oauth.registerClient(clientId, secret);
  }

  addUser(user: FakeVcUser): FakeVcUser {
    this.users.set(user.email, user);
    return user;
  }

  /** The user consented on the platform's authorisation page: the code it redirects back with. */
  authorize(clientId: string, user: FakeVcUser, redirectUri: string): string {
    const code = `code.${randomBytes(12).toString('base64url')}`;
    this.codes.set(code, { clientId, redirectUri, user, used: false });
    return code;
  }

  /** The user removed the app: its refresh tokens and access tokens stop working. */
  revoke(user: FakeVcUser, clientId: string): void {
    const token = [...this.clientOfRefresh].find(([t, c]) => c === clientId && this.refreshAccounts.get(t) === user.email)?.[0];
    if (token) this.oauth.revoke(token);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err: Error) => sendJson(res, 500, { code: 500, message: err.message }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (req.method === 'POST' && url.pathname === '/oauth/token') return this.token(req, res, body);
    if (req.method === 'GET' && url.pathname === '/v2/users/me') return this.me(req, res);
    if (req.method === 'GET' && url.pathname === '/v2/users/me/token') return this.userToken(req, res, url);
    sendJson(res, 404, { code: 404, message: 'Not found' });
  }

  private account(req: http.IncomingMessage): FakeVcUser | null {
    const account: FakeAccount | null = this.oauth.accountOf(req.headers.authorization);
    return account ? (this.users.get(account.email) ?? null) : null;
  }

  private invalidAccessToken(res: http.ServerResponse): void {
    sendJson(res, 401, { code: 124, message: 'Invalid access token.' });
  }

  private me(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.calls.push('GET /v2/users/me');
    const user = this.account(req);
    if (!user) return this.invalidAccessToken(res);
    const [first, ...last] = user.name.split(' ');
    sendJson(res, 200, { id: user.id, account_id: user.account_id, email: user.email, first_name: first, last_name: last.join(' '), type: 2, status: 'active' });
  }

  private async userToken(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const type = url.searchParams.get('type');
    this.calls.push(`GET /v2/users/me/token ${type}`);
    const user = this.account(req);
    if (!user) return this.invalidAccessToken(res);
    if (this.obfFailure) return sendJson(res, this.obfFailure.status, this.obfFailure.body);
    if (type !== 'onbehalf') return sendJson(res, 400, { code: 300, message: 'This type is not supported by this fake.' });
    const meetingNumber = url.searchParams.get('meeting_id');
    if (!meetingNumber || !/^\d{9,11}$/.test(meetingNumber)) return sendJson(res, 400, { code: 300, message: 'Invalid meeting_id.' });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')![1]!;
    const request: ObfRequest = { user, client_id: this.clientOfAccess.get(token) ?? '', meeting_number: meetingNumber };
    const obf = await this.mintObf(request);
    this.issuedObf.push({ token: obf, request });
    sendJson(res, 200, { token: obf });
  }

  private token(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const form = readTokenForm(body, req.headers.authorization);
    const grantType = form.grantType;
    this.calls.push(`POST /oauth/token ${grantType}`);
    if (grantType === 'authorization_code') return this.exchangeCode(res, form.clientId, form.secret, new URLSearchParams(body));
    const result = this.oauth.refresh(grantType, form.clientId, form.secret, form.refreshToken);
    if (!result.ok) return sendJson(res, result.status, { reason: result.kind === 'revoked' ? 'Invalid Token!' : 'Invalid request', error: result.error });
    // rotated: the old refresh token is spent, the new one belongs to the same account
    const email = this.refreshAccounts.get(form.refreshToken ?? '');
    if (result.refreshToken && email) {
      this.refreshAccounts.set(result.refreshToken, email);
      this.clientOfRefresh.set(result.refreshToken, form.clientId ?? '');
    }
    this.clientOfAccess.set(result.accessToken, form.clientId ?? '');
    sendJson(res, 200, { access_token: result.accessToken, token_type: 'bearer', refresh_token: result.refreshToken, expires_in: result.expiresIn, scope: SCOPES });
  }

  private exchangeCode(res: http.ServerResponse, clientId: string | null, secret: string | null, form: URLSearchParams): void {
    const code = this.codes.get(form.get('code') ?? '');
    const refused = (reason: string, error = 'invalid_grant') => sendJson(res, error === 'invalid_client' ? 401 : 400, { reason, error });
    if (!clientId || !secret) return refused('Invalid client_id or client_secret', 'invalid_client');
    if (!code || code.used) return refused('Invalid authorization code');
    if (code.clientId !== clientId) return refused('Invalid authorization code');
    if (code.redirectUri !== form.get('redirect_uri')) return refused('Redirect URI mismatch.');
    code.used = true;
    // The client's secret is checked the way the refresh grant checks it: through the registered client.
    const issued = this.oauth.issueRefreshToken(clientId, { email: code.user.email, name: code.user.name });
    const first = this.oauth.refresh('refresh_token', clientId, secret, issued);
    if (!first.ok) return refused('Invalid client_id or client_secret', 'invalid_client');
    const refreshToken = first.refreshToken ?? issued;
    this.refreshAccounts.set(refreshToken, code.user.email);
    this.clientOfRefresh.set(refreshToken, clientId);
    this.clientOfAccess.set(first.accessToken, clientId);
    sendJson(res, 200, { access_token: first.accessToken, token_type: 'bearer', refresh_token: refreshToken, expires_in: first.expiresIn, scope: SCOPES });
  }
}
