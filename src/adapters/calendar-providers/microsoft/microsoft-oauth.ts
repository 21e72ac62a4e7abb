import { CalendarProviderError, type ProviderSession } from '../port';

/** What the Microsoft identity platform's token endpoint answers to the refresh-token grant. */
interface TokenAnswer {
  readonly access_token?: string;
  readonly refresh_token?: string;
  readonly expires_in?: number;
  readonly error?: string;
  readonly error_description?: string;
}

/** Read access to the account's calendars, and a refresh token in return (the grant's `scope`). */
export const GRAPH_CALENDAR_SCOPE = 'offline_access https://graph.microsoft.com/Calendars.Read';

/** An access token is not used in its last minute, so that it never expires on the way. */
const EARLY_MS = 60_000;
const MAX_ACCOUNTS = 1000;

interface Cached {
  readonly accessToken: string;
  readonly expiresAtMs: number;
}

/**
 * The OAuth 2.0 refresh-token grant (RFC 6749 §6) against the Microsoft identity platform's token
 * endpoint, form-encoded as it requires. Access tokens are kept in memory per account until shortly
 * before they expire; the rotated refresh token that comes with each answer is handed to the session.
 */
export class MicrosoftTokens {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly tokenUrl: string,
    private readonly requestOptions: RequestInit = {},
  ) {}

  async accessToken(session: ProviderSession, nowMs = Date.now()): Promise<string> {
    const key = this.keyOf(session);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAtMs - EARLY_MS > nowMs) return cached.accessToken;
    return this.refresh(session, nowMs);
  }

  /** Forgets the account's access token (the API refused it before it should have expired). */
  forget(session: ProviderSession): void {
    this.cache.delete(this.keyOf(session));
  }

  private keyOf(session: ProviderSession): string {
    const { client_id, client_secret, refresh_token } = session.credentials;
    return `${client_id}\u0000${client_secret}\u0000${refresh_token}`;
  }

  private async refresh(session: ProviderSession, nowMs: number): Promise<string> {
    const { client_id, client_secret, refresh_token } = session.credentials;
    const body = new URLSearchParams({ client_id, client_secret, grant_type: 'refresh_token', refresh_token, scope: GRAPH_CALENDAR_SCOPE });
    let response: Response;
    try {
      response = await fetch(this.tokenUrl, {
        ...this.requestOptions,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new CalendarProviderError('unavailable', `the Microsoft token endpoint could not be reached: ${(err as Error).message}`);
    }
    const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (!response.ok || !answer.access_token) {
      const text = `${answer.error ?? `HTTP ${response.status}`}${answer.error_description ? `: ${answer.error_description}` : ''}`;
      if (answer.error === 'invalid_grant' || answer.error === 'interaction_required') throw new CalendarProviderError('credentials_revoked', text);
      if (answer.error === 'invalid_client' || answer.error === 'unauthorized_client') throw new CalendarProviderError('invalid_client', text);
      throw new CalendarProviderError(response.status >= 500 || response.status === 429 ? 'unavailable' : 'access_denied', text);
    }
    if (this.cache.size >= MAX_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
    const accessToken = answer.access_token;
    const expiresInMs = (answer.expires_in ?? 3600) * 1000;
    const rotated = answer.refresh_token && answer.refresh_token !== refresh_token ? answer.refresh_token : null;
    // Cached under the token that will be used from now on, so the next call finds it.
    const nextKey = this.keyOf(rotated ? { credentials: { ...session.credentials, refresh_token: rotated } } : session);
    this.cache.set(nextKey, { accessToken, expiresAtMs: nowMs + expiresInMs });
    if (rotated) await session.onRefreshTokenRotated?.(rotated);
    return accessToken;
  }
}
