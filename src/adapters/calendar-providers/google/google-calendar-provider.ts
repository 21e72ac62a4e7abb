import { auth, calendar, type calendar_v3 } from '@googleapis/calendar';
import type { PushChannel } from '../../../domain/calendar/calendar-events';
import type { PlatformOptions } from '../../../domain/meeting-url';
import {
  CalendarProviderError, type CalendarProvider, type ChannelRequest, type ProviderItem, type ProviderSession, type RawCalendar, type SyncStart,
} from '../port';
import { googleItem } from './google-events';

export interface GoogleProviderOptions extends PlatformOptions {
  /** GOOGLE_API_BASE_URL: where the Calendar API v3 lives (its paths start with /calendar/v3) */
  readonly apiBaseUrl: string;
  /** GOOGLE_OAUTH_TOKEN_URL: the OAuth token endpoint of the refresh-token grant */
  readonly tokenUrl: string;
  /** events per page (Google allows up to 2500) */
  readonly pageSize?: number;
  readonly timeoutMs?: number;
}

interface Client {
  readonly api: calendar_v3.Calendar;
  /** the latest caller's session: a rotated refresh token is reported to it */
  session: ProviderSession;
}

const MAX_CLIENTS = 1000;

/** What Google's own client throws (gaxios): the status and body of the answer, when there was one. */
interface GaxiosLike {
  readonly message: string;
  readonly status?: number;
  readonly response?: { readonly status?: number; readonly data?: unknown };
}

/**
 * The token endpoint answers `{error: "invalid_grant", error_description}` (a string); the API answers
 * `{error: {code, message, errors: [{reason}]}}`.
 */
export const googleError = (err: unknown): CalendarProviderError => {
  if (err instanceof CalendarProviderError) return err;
  const e = err as GaxiosLike;
  const status = e.response?.status ?? e.status;
  const data = e.response?.data as { error?: unknown; error_description?: unknown } | undefined;
  if (typeof data?.error === 'string') {
    const text = `${data.error}${typeof data.error_description === 'string' ? `: ${data.error_description}` : ''}`;
    if (data.error === 'invalid_grant') return new CalendarProviderError('credentials_revoked', text);
    if (data.error === 'invalid_client' || data.error === 'unauthorized_client') return new CalendarProviderError('invalid_client', text);
    return new CalendarProviderError(status !== undefined && status >= 500 ? 'unavailable' : 'access_denied', text);
  }
  const apiError = data?.error as { message?: string; errors?: { reason?: string }[] } | undefined;
  const text = `Google Calendar answered ${status ?? 'nothing'}: ${apiError?.message ?? e.message}`;
  switch (status) {
    case 401:
      return new CalendarProviderError('credentials_revoked', text);
    case 403:
      return apiError?.errors?.some((x) => x.reason === 'rateLimitExceeded' || x.reason === 'userRateLimitExceeded')
        ? new CalendarProviderError('unavailable', text)
        : new CalendarProviderError('access_denied', text);
    case 404:
      return new CalendarProviderError('calendar_not_found', text);
    case 410:
      return new CalendarProviderError('sync_token_expired', text);
    default:
      return new CalendarProviderError('unavailable', text);
  }
};

/**
 * Google Calendar API v3 through the official client (`@googleapis/calendar`), with its OAuth2 client doing
 * the refresh-token grant against the configured token URL. Events are read as single instances
 * (`singleEvents`), so a recurring series arrives as its instances, each with the series' id.
 */
export class GoogleCalendarProvider implements CalendarProvider {
  readonly platform = 'google' as const;
  private readonly clients = new Map<string, Client>();

  constructor(private readonly options: GoogleProviderOptions) {}

  async listCalendars(session: ProviderSession): Promise<readonly RawCalendar[]> {
    const { api } = this.clientFor(session);
    const calendars: RawCalendar[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.call(() => api.calendarList.list({ maxResults: 250, ...(pageToken ? { pageToken } : {}) }, this.requestOptions()));
      for (const entry of page.data.items ?? []) {
        if (!entry.id) continue;
        calendars.push({ id: entry.id, email: entry.id, name: entry.summaryOverride ?? entry.summary ?? entry.id, is_primary: entry.primary === true });
      }
      pageToken = page.data.nextPageToken ?? undefined;
    } while (pageToken);
    return calendars;
  }

  async sync(session: ProviderSession, calendarId: string, start: SyncStart, onPage: (items: readonly ProviderItem[]) => Promise<void>): Promise<{ cursor: string }> {
    const { api } = this.clientFor(session);
    const query =
      start.kind === 'full'
        ? { timeMin: start.window.start, timeMax: start.window.end, showDeleted: false }
        : { syncToken: start.cursor };
    let pageToken: string | undefined;
    for (;;) {
      const page = await this.call(() =>
        api.events.list({ calendarId, singleEvents: true, maxResults: this.options.pageSize ?? 500, ...query, ...(pageToken ? { pageToken } : {}) }, this.requestOptions()),
      );
      await onPage((page.data.items ?? []).flatMap((event) => googleItem(event, this.options) ?? []));
      pageToken = page.data.nextPageToken ?? undefined;
      if (pageToken) continue;
      if (!page.data.nextSyncToken) throw new CalendarProviderError('unavailable', 'Google Calendar ended a listing without a sync token');
      return { cursor: page.data.nextSyncToken };
    }
  }

  async openChannel(session: ProviderSession, calendarId: string, request: ChannelRequest): Promise<PushChannel> {
    const { api } = this.clientFor(session);
    const opened = await this.call(() =>
      api.events.watch(
        { calendarId, requestBody: { id: request.channel_id, type: 'web_hook', address: request.address, token: request.token, params: { ttl: String(request.ttl_seconds) } } },
        this.requestOptions(),
      ),
    );
    if (!opened.data.resourceId) throw new CalendarProviderError('channel_refused', 'Google Calendar opened a channel without a resource id');
    const expiresMs = Number(opened.data.expiration);
    return {
      channel_id: request.channel_id,
      provider_channel_id: opened.data.resourceId,
      expires_at: Number.isFinite(expiresMs) && expiresMs > 0 ? new Date(expiresMs).toISOString() : request.expires_at,
    };
  }

  /** Google channels cannot be extended: a new one is opened and the old one stopped. */
  async renewChannel(): Promise<PushChannel | null> {
    return null;
  }

  async closeChannel(session: ProviderSession, channel: PushChannel): Promise<void> {
    const { api } = this.clientFor(session);
    try {
      await api.channels.stop({ requestBody: { id: channel.channel_id, resourceId: channel.provider_channel_id } }, this.requestOptions());
    } catch (err) {
      const error = googleError(err);
      // Already gone (expired, or stopped before): what closing wanted.
      if (error.kind !== 'calendar_not_found') throw error;
    }
  }

  private requestOptions() {
    return { timeout: this.options.timeoutMs ?? 30_000 };
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw googleError(err);
    }
  }

  /** One client per account, so that its access token is reused until it expires. */
  private clientFor(session: ProviderSession): Client {
    const { client_id, client_secret, refresh_token } = session.credentials;
    const key = `${client_id}\u0000${client_secret}\u0000${refresh_token}`;
    const cached = this.clients.get(key);
    if (cached) {
      cached.session = session;
      return cached;
    }
    // A 401 before the token's stated expiry (revoked access token) gets one fresh token and one retry.
    const oauth = new auth.OAuth2({ clientId: client_id, clientSecret: client_secret, endpoints: { oauth2TokenUrl: this.options.tokenUrl }, forceRefreshOnFailure: true });
    oauth.setCredentials({ refresh_token });
    const client: Client = { api: calendar({ version: 'v3', auth: oauth, rootUrl: this.options.apiBaseUrl }), session };
    oauth.on('tokens', (tokens) => {
      // The callback records the new token and reports its own failures; nothing waits for it here.
      if (tokens.refresh_token && tokens.refresh_token !== refresh_token) void client.session.onRefreshTokenRotated?.(tokens.refresh_token);
    });
    if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    this.clients.set(key, client);
    return client;
  }
}
