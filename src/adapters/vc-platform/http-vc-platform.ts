import type { VcClientCredentials, VcPlatform, VcPlatformFailure, VcPlatformResult, VcPlatformSettings, VcTokenGrant, VcUser } from './port';

const TIMEOUT_MS = 10_000;

const failure = (refused: boolean, reason: string): VcPlatformFailure => ({ ok: false, refused, reason });

/** The platform's own words for a refusal (`{error, reason}` of OAuth, `{code, message}` of the REST API), short and without secrets. */
const platformWords = (body: unknown): string => {
  if (typeof body !== 'object' || body === null) return '';
  const b = body as Record<string, unknown>;
  const words = [b.error, b.reason, b.code, b.message].filter((w) => typeof w === 'string' || typeof w === 'number').map(String);
  return words.length > 0 ? `: ${words.join(', ').slice(0, 200)}` : '';
};

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * One call: the status and the JSON body, or a failure that is not the credential's fault (no answer,
 * not JSON). The request's own error is described by its code only: a message could name an address.
 */
const call = async (what: string, url: string, init: RequestInit): Promise<Answer | VcPlatformFailure> => {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return failure(false, `the platform could not be reached for ${what} (${cause})`);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    return failure(false, `the platform answered ${what} with HTTP ${response.status} and no JSON`);
  }
  return { status: response.status, body };
};

const isFailure = (a: Answer | VcPlatformFailure): a is VcPlatformFailure => 'ok' in a;

const grantOf = (body: unknown): VcTokenGrant | null => {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b.access_token !== 'string' || typeof b.refresh_token !== 'string' || typeof b.expires_in !== 'number') return null;
  return { access_token: b.access_token, refresh_token: b.refresh_token, expires_in: b.expires_in, scope: typeof b.scope === 'string' ? b.scope : '' };
};

/** The platform's OAuth and REST API over HTTP (fetch), at the configured base URLs. */
export class HttpVcPlatform implements VcPlatform {
  constructor(private readonly settings: VcPlatformSettings) {}

  private async tokenGrant(what: string, client: VcClientCredentials, form: Record<string, string>): Promise<VcPlatformResult<VcTokenGrant>> {
    const basic = Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64');
    const answer = await call(what, `${this.settings.oauthBaseUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    if (isFailure(answer)) return answer;
    if (answer.status >= 500 || answer.status === 429) return failure(false, `the platform failed ${what} (HTTP ${answer.status})`);
    if (answer.status !== 200) return failure(true, `the platform refused ${what} (HTTP ${answer.status}${platformWords(answer.body)})`);
    const grant = grantOf(answer.body);
    return grant ? { ok: true, value: grant } : failure(false, `the platform answered ${what} without tokens`);
  }

  exchangeCode(client: VcClientCredentials, code: string, redirectUri: string): Promise<VcPlatformResult<VcTokenGrant>> {
    return this.tokenGrant('the authorization code', client, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  refresh(client: VcClientCredentials, refreshToken: string): Promise<VcPlatformResult<VcTokenGrant>> {
    return this.tokenGrant('the refresh token', client, { grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async get(what: string, path: string, accessToken: string): Promise<VcPlatformResult<Record<string, unknown>>> {
    const answer = await call(what, `${this.settings.apiBaseUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (isFailure(answer)) return answer;
    // 401: the access token is no good (expired early, revoked): the credential's problem. Any other
    // refusal (a missing scope, an unknown meeting) is this request's, and is said as it is.
    if (answer.status >= 400 && answer.status < 500) {
      return failure(answer.status === 401, `the platform refused ${what} (HTTP ${answer.status}${platformWords(answer.body)})`);
    }
    if (answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null) return failure(false, `the platform failed ${what} (HTTP ${answer.status})`);
    return { ok: true, value: answer.body as Record<string, unknown> };
  }

  async currentUser(accessToken: string): Promise<VcPlatformResult<VcUser>> {
    const got = await this.get('the current user', '/users/me', accessToken);
    if (!got.ok) return got;
    const { id, account_id } = got.value;
    if (typeof id !== 'string' || typeof account_id !== 'string') return failure(false, 'the platform answered the current user without its id');
    return { ok: true, value: { id, account_id } };
  }

  async obfToken(accessToken: string, meetingNumber: string): Promise<VcPlatformResult<string>> {
    const query = new URLSearchParams({ type: 'onbehalf', meeting_id: meetingNumber });
    const got = await this.get('an OBF token', `/users/me/token?${query}`, accessToken);
    if (!got.ok) return got;
    return typeof got.value.token === 'string' && got.value.token !== ''
      ? { ok: true, value: got.value.token }
      : failure(false, 'the platform answered an OBF token request without a token');
  }
}
