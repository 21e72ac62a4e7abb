import { AuthenticationHandlerOptions, Client, GraphError, type GraphRequest } from '@microsoft/microsoft-graph-client';
import type { PushChannel } from '../../../domain/calendar/calendar-events';
import type { PlatformOptions } from '../../../domain/meeting-url';
import {
  CalendarProviderError, type CalendarProvider, type ChannelRequest, type ProviderItem, type ProviderSession, type RawCalendar, type SyncStart,
} from '../port';
import { graphItem, type GraphEvent } from './graph-events';
import { MicrosoftTokens } from './microsoft-oauth';

export interface GraphProviderOptions extends PlatformOptions {
  /** MICROSOFT_GRAPH_BASE_URL: the Graph host (the client adds /v1.0) */
  readonly graphBaseUrl: string;
  /** MICROSOFT_OAUTH_TOKEN_URL: the identity platform's token endpoint */
  readonly tokenUrl: string;
  /** events per page (`Prefer: odata.maxpagesize`) */
  readonly pageSize?: number;
  /**
   * Extra fetch options for every request, e.g. an undici dispatcher that trusts a test server's certificate
   * (a service process trusts one through NODE_EXTRA_CA_CERTS instead).
   */
  readonly requestOptions?: RequestInit;
}

interface Page<T> {
  readonly value?: readonly T[];
  readonly '@odata.nextLink'?: string;
  readonly '@odata.deltaLink'?: string;
}

interface GraphCalendar {
  readonly id?: string;
  readonly name?: string;
  readonly isDefaultCalendar?: boolean;
  readonly owner?: { readonly address?: string; readonly name?: string };
}

interface GraphSubscription {
  readonly id?: string;
  readonly expirationDateTime?: string;
}

const graphErrorOf = (err: unknown): CalendarProviderError => {
  if (err instanceof CalendarProviderError) return err;
  if (!(err instanceof GraphError)) return new CalendarProviderError('unavailable', `Microsoft Graph could not be reached: ${(err as Error).message}`);
  const text = `Microsoft Graph answered ${err.statusCode}${err.code ? ` ${err.code}` : ''}: ${err.message}`;
  if (err.statusCode === 410 || /syncStateNotFound|resyncRequired|syncStateInvalid/i.test(err.code ?? '')) return new CalendarProviderError('sync_token_expired', text);
  switch (err.statusCode) {
    case 401:
      return new CalendarProviderError('credentials_revoked', text);
    case 403:
      return new CalendarProviderError('access_denied', text);
    case 404:
      return new CalendarProviderError('calendar_not_found', text);
    default:
      return new CalendarProviderError('unavailable', text);
  }
};

/**
 * Microsoft Graph v1.0 through the official client (`@microsoft/microsoft-graph-client`): calendars of the
 * signed-in account, `calendarView/delta` for full and incremental syncs (instances of series included),
 * and change-notification subscriptions. Tokens come from the refresh-token grant (MicrosoftTokens).
 */
export class GraphCalendarProvider implements CalendarProvider {
  readonly platform = 'microsoft' as const;
  private readonly tokens: MicrosoftTokens;
  private readonly client: Client;
  private readonly origin: string;

  constructor(private readonly options: GraphProviderOptions) {
    this.tokens = new MicrosoftTokens(options.tokenUrl, options.requestOptions);
    const base = new URL(options.graphBaseUrl);
    this.origin = base.origin;
    this.client = Client.init({
      baseUrl: this.origin,
      defaultVersion: 'v1.0',
      // The client sends the token to Microsoft's own hosts only, unless told of another one.
      customHosts: new Set([base.hostname]),
      ...(options.requestOptions ? { fetchOptions: options.requestOptions as never } : {}),
      // Every request names its own account's token (withToken); a request without one is a mistake here.
      authProvider: (done) => done(new Error('a Graph request was sent without its account token'), null),
    });
  }

  async listCalendars(session: ProviderSession): Promise<readonly RawCalendar[]> {
    const calendars: RawCalendar[] = [];
    let next: string | null = '/me/calendars?$top=100';
    while (next !== null) {
      const page: Page<GraphCalendar> = await this.get(session, next);
      for (const c of page.value ?? []) {
        if (!c.id) continue;
        calendars.push({ id: c.id, email: c.owner?.address ?? '', name: c.name ?? c.id, is_primary: c.isDefaultCalendar === true });
      }
      next = page['@odata.nextLink'] ? this.sameHost(page['@odata.nextLink']) : null;
    }
    return calendars;
  }

  async sync(session: ProviderSession, calendarId: string, start: SyncStart, onPage: (items: readonly ProviderItem[]) => Promise<void>): Promise<{ cursor: string }> {
    let next =
      start.kind === 'full'
        ? `/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta?startDateTime=${encodeURIComponent(start.window.start)}&endDateTime=${encodeURIComponent(start.window.end)}`
        : this.sameHost(start.cursor);
    const prefer = `odata.maxpagesize=${this.options.pageSize ?? 500}, outlook.timezone="UTC"`;
    for (;;) {
      const page: Page<GraphEvent> = await this.get(session, next, { Prefer: prefer });
      await onPage((page.value ?? []).flatMap((event) => graphItem(event, this.options) ?? []));
      if (page['@odata.nextLink']) {
        next = this.sameHost(page['@odata.nextLink']);
        continue;
      }
      if (!page['@odata.deltaLink']) throw new CalendarProviderError('unavailable', 'Microsoft Graph ended a delta round without a delta link');
      return { cursor: page['@odata.deltaLink'] };
    }
  }

  async openChannel(session: ProviderSession, calendarId: string, request: ChannelRequest): Promise<PushChannel> {
    const subscription = await this.send<GraphSubscription>(session, 'POST', '/subscriptions', {
      changeType: 'created,updated,deleted',
      notificationUrl: request.address,
      resource: `/me/calendars/${calendarId}/events`,
      expirationDateTime: request.expires_at,
      clientState: request.token,
    }).catch((err: unknown) => {
      const error = graphErrorOf(err);
      // Graph refuses a subscription whose notification URL did not answer its validation request.
      throw error.kind === 'unavailable' || error.kind === 'access_denied' ? new CalendarProviderError('channel_refused', error.message) : error;
    });
    if (!subscription.id) throw new CalendarProviderError('channel_refused', 'Microsoft Graph created a subscription without an id');
    return { channel_id: request.channel_id, provider_channel_id: subscription.id, expires_at: subscription.expirationDateTime ?? request.expires_at };
  }

  async renewChannel(session: ProviderSession, channel: PushChannel, expiresAt: string): Promise<PushChannel | null> {
    try {
      const renewed: GraphSubscription = await this.send(session, 'PATCH', `/subscriptions/${encodeURIComponent(channel.provider_channel_id)}`, { expirationDateTime: expiresAt });
      return { ...channel, expires_at: renewed.expirationDateTime ?? expiresAt };
    } catch (err) {
      const error = graphErrorOf(err);
      // Expired or deleted at Graph: a new one has to be made.
      if (error.kind === 'calendar_not_found') return null;
      throw error;
    }
  }

  async closeChannel(session: ProviderSession, channel: PushChannel): Promise<void> {
    try {
      await this.send(session, 'DELETE', `/subscriptions/${encodeURIComponent(channel.provider_channel_id)}`);
    } catch (err) {
      const error = graphErrorOf(err);
      if (error.kind !== 'calendar_not_found') throw error;
    }
  }

  /**
   * A link Graph handed out (next page, delta link) is followed only on the configured host: the access
   * token goes nowhere else, whatever a response says.
   */
  private sameHost(link: string): string {
    const url = new URL(link);
    if (url.origin !== this.origin) throw new CalendarProviderError('unavailable', `Microsoft Graph linked to another host (${url.origin}), not followed`);
    return link;
  }

  private get<T>(session: ProviderSession, path: string, headers: Record<string, string> = {}): Promise<T> {
    return this.withToken(session, (request) => request(path).headers(headers).get() as Promise<T>);
  }

  private send<T>(session: ProviderSession, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return this.withToken(session, (request) => {
      const call = request(path);
      if (method === 'POST') return call.post(body) as Promise<T>;
      if (method === 'PATCH') return call.patch(body) as Promise<T>;
      return call.delete() as Promise<T>;
    });
  }

  /**
   * The call with the account's access token (given per request, so that concurrent calls for different
   * accounts never mix them up); a 401 gets one retry with a fresh token.
   */
  private async withToken<T>(session: ProviderSession, call: (request: (path: string) => GraphRequest) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const token = await this.tokens.accessToken(session);
      const auth = new AuthenticationHandlerOptions({ getAccessToken: async () => token });
      try {
        return await call((path) => this.client.api(path).middlewareOptions([auth]));
      } catch (err) {
        if (err instanceof GraphError && err.statusCode === 401 && attempt === 1) {
          this.tokens.forget(session);
          continue;
        }
        throw graphErrorOf(err);
      }
    }
  }
}
