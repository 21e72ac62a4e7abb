import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactUtc, decodeToken, encodeToken, FakeCalendar, pageAfter, sortKey, type FakePerson, type Occurrence } from './fake-calendar';
import { FakeOAuth, readTokenForm, type FakeAccount } from './fake-oauth';
import { acceptableNoticeUrl, parseJson, postNotice, readBody, sendJson, type DeliveredNotice } from './http-kit';

/**
 * A local Google: the OAuth token endpoint (refresh-token grant) and the parts of Calendar API v3 the
 * service uses, as Google documents them: calendarList.list, events.list with paging, time bounds and
 * incremental sync (`syncToken`, 410 Gone once it expired), events.watch and channels.stop, and the
 * push notices of a watch channel (`X-Goog-*` headers, a `sync` notice first, then `exists`).
 *
 * Events are listed as single instances only (`singleEvents=true`, which is how the service reads them);
 * a request without it is refused with 400 rather than answered in a shape this fake does not render.
 */
interface Channel {
  readonly id: string;
  readonly resourceId: string;
  readonly calendar: FakeCalendar;
  readonly address: string;
  readonly token: string | null;
  readonly expiresMs: number;
  messages: number;
}

interface PageState {
  readonly mode: 'full' | 'incremental';
  readonly cal: string;
  readonly snap: number;
  readonly after: string | null;
  /** incremental: changes after this one */
  readonly since: number;
  readonly timeMin: number | null;
  readonly timeMax: number | null;
  readonly showDeleted: boolean;
  readonly gen: number;
}

interface SyncTokenState {
  readonly cal: string;
  readonly seq: number;
  readonly gen: number;
}

const apiError = (code: number, message: string, reason: string, extra: Record<string, unknown> = {}) => ({
  error: { errors: [{ domain: 'global', reason, message, ...extra }], code, message },
});

const UNAUTHENTICATED = {
  error: {
    code: 401,
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
    status: 'UNAUTHENTICATED',
  },
};

export class FakeGoogleCalendar {
  readonly oauth: FakeOAuth;
  readonly notices: DeliveredNotice[] = [];
  /** API calls answered, by method and path pattern */
  readonly calls: string[] = [];
  private readonly calendars = new Map<string, { readonly calendar: FakeCalendar; readonly account: FakeAccount }>();
  private readonly channels = new Map<string, Channel>();
  private server: http.Server | null = null;
  private readonly pendingNotices = new Set<Promise<void>>();

  constructor(private readonly now: () => number = Date.now) {
    this.oauth = new FakeOAuth(now, { accessTokenPrefix: 'ya29.', refreshTokenPrefix: '1//', rotateRefreshTokens: false });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** GOOGLE_API_BASE_URL */
  get apiBaseUrl(): string {
    return `${this.url}/`;
  }

  /** GOOGLE_OAUTH_TOKEN_URL */
  get tokenUrl(): string {
    return `${this.url}/token`;
  }

  addAccount(email: string, name: string): FakeAccount {
    return { email, name };
  }

  /** A calendar of the account; its primary calendar's id is the account's address, as Google's is. */
  addCalendar(account: FakeAccount, options: { id?: string; name?: string; primary?: boolean } = {}): FakeCalendar {
    const primary = options.primary ?? options.id === undefined;
    const id = options.id ?? account.email;
    const calendar = new FakeCalendar(id, options.name ?? account.name, { email: account.email, name: account.name } satisfies FakePerson, primary, this.now);
    this.calendars.set(id, { calendar, account });
    calendar.onChange(() => this.notifyChannels(calendar));
    return calendar;
  }

  openChannels(): readonly { id: string; resourceId: string; calendarId: string; expiresMs: number }[] {
    return [...this.channels.values()].map((c) => ({ id: c.id, resourceId: c.resourceId, calendarId: c.calendar.id, expiresMs: c.expiresMs }));
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err: Error) => sendJson(res, 500, apiError(500, err.message, 'backendError')));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.pendingNotices]);
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Resolves once every push notice sent so far has been answered. */
  async noticesSettled(): Promise<void> {
    while (this.pendingNotices.size > 0) await Promise.all([...this.pendingNotices]);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (req.method === 'POST' && url.pathname === '/token') return this.token(req, res, body);

    const account = this.oauth.accountOf(req.headers.authorization);
    if (!account) return sendJson(res, 401, UNAUTHENTICATED, { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' });

    const path = url.pathname.split('/').map((part) => decodeURIComponent(part));
    // ['', 'calendar', 'v3', ...]
    if (path[1] !== 'calendar' || path[2] !== 'v3') return sendJson(res, 404, apiError(404, 'Not Found', 'notFound'));
    const rest = path.slice(3);
    if (req.method === 'GET' && rest.join('/') === 'users/me/calendarList') return this.calendarList(res, url, account);
    if (req.method === 'POST' && rest.join('/') === 'channels/stop') return this.stopChannel(res, body);
    if (rest[0] === 'calendars' && rest.length >= 3 && rest[2] === 'events') {
      const entry = this.calendarOf(rest[1]!, account);
      if (!entry) return sendJson(res, 404, apiError(404, 'Not Found', 'notFound'));
      if (req.method === 'GET' && rest.length === 3) return this.listEvents(res, url, entry);
      if (req.method === 'POST' && rest.length === 4 && rest[3] === 'watch') return this.watch(res, body, entry);
    }
    return sendJson(res, 404, apiError(404, 'Not Found', 'notFound'));
  }

  private token(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const form = readTokenForm(body, req.headers.authorization);
    const result = this.oauth.refresh(form.grantType, form.clientId, form.secret, form.refreshToken);
    if (result.ok) {
      sendJson(res, 200, { access_token: result.accessToken, expires_in: result.expiresIn, scope: 'https://www.googleapis.com/auth/calendar.readonly', token_type: 'Bearer' });
      return;
    }
    const description: Record<string, string> = {
      unknown_client: 'The OAuth client was not found.',
      bad_secret: 'Unauthorized',
      revoked: 'Token has been expired or revoked.',
      unknown_token: 'Bad Request',
      other: 'Invalid grant_type or missing parameter.',
    };
    sendJson(res, result.status, { error: result.error, error_description: description[result.kind] });
  }

  private calendarOf(id: string, account: FakeAccount) {
    if (id === 'primary') return [...this.calendars.values()].find((c) => c.account.email === account.email && c.calendar.primary) ?? null;
    const entry = this.calendars.get(id);
    return entry && entry.account.email === account.email ? entry : null;
  }

  private calendarList(res: http.ServerResponse, url: URL, account: FakeAccount): void {
    this.calls.push('GET calendarList');
    const mine = [...this.calendars.values()].filter((c) => c.account.email === account.email).map((c) => c.calendar);
    const max = Math.min(Number(url.searchParams.get('maxResults') ?? 100), 250);
    const after = url.searchParams.get('pageToken');
    const { page, last, more } = pageAfter(mine, (c) => c.id, after, max);
    sendJson(res, 200, {
      kind: 'calendar#calendarList',
      etag: `"p${mine.length}"`,
      ...(more ? { nextPageToken: last } : { nextSyncToken: encodeToken({ list: true }) }),
      items: page.map((c) => ({
        kind: 'calendar#calendarListEntry', etag: `"${c.seq}"`, id: c.id, summary: c.name, timeZone: 'UTC', colorId: '14', backgroundColor: '#9fe1e7',
        foregroundColor: '#000000', selected: true, accessRole: 'owner', defaultReminders: [], ...(c.primary ? { primary: true } : {}),
      })),
    });
  }

  private listEvents(res: http.ServerResponse, url: URL, entry: { calendar: FakeCalendar; account: FakeAccount }): void {
    const q = url.searchParams;
    const { calendar } = entry;
    if (q.get('singleEvents') !== 'true') return sendJson(res, 400, apiError(400, 'This fake lists single instances only (singleEvents=true).', 'invalid'));
    const maxResults = Math.min(Math.max(Number(q.get('maxResults') ?? 250) || 250, 1), 2500);
    const syncToken = q.get('syncToken');
    const pageToken = q.get('pageToken');
    let state: PageState;
    if (pageToken) {
      const decoded = decodeToken<PageState>(pageToken);
      if (!decoded || decoded.cal !== calendar.id) return sendJson(res, 400, apiError(400, 'Invalid page token value.', 'invalid', { location: 'pageToken' }));
      state = decoded;
    } else if (syncToken) {
      for (const forbidden of ['timeMin', 'timeMax', 'orderBy', 'q', 'updatedMin', 'iCalUID']) {
        if (q.has(forbidden)) return sendJson(res, 400, apiError(400, `Invalid parameter ${forbidden} with syncToken.`, 'invalid', { location: forbidden }));
      }
      const token = decodeToken<SyncTokenState>(syncToken);
      if (!token || token.cal !== calendar.id) return sendJson(res, 400, apiError(400, 'Invalid sync token value.', 'invalid', { location: 'syncToken' }));
      if (token.gen !== calendar.tokenGeneration) {
        this.calls.push('GET events 410');
        return sendJson(res, 410, apiError(410, 'Sync token is no longer valid, a full sync is required.', 'fullSyncRequired'));
      }
      state = { mode: 'incremental', cal: calendar.id, snap: calendar.seq, after: null, since: token.seq, timeMin: null, timeMax: null, showDeleted: true, gen: token.gen };
    } else {
      const timeMin = q.has('timeMin') ? Date.parse(q.get('timeMin')!) : null;
      const timeMax = q.has('timeMax') ? Date.parse(q.get('timeMax')!) : null;
      if (Number.isNaN(timeMin) || Number.isNaN(timeMax)) return sendJson(res, 400, apiError(400, 'Bad Request', 'badRequest'));
      state = { mode: 'full', cal: calendar.id, snap: calendar.seq, after: null, since: 0, timeMin, timeMax, showDeleted: q.get('showDeleted') === 'true', gen: calendar.tokenGeneration };
    }
    this.calls.push(`GET events ${state.mode}`);

    const all = calendar.occurrences();
    // A full listing shows what is there now; an incremental one what changed after the token and up to
    // the first page's snapshot (what changes during the paging is left to the next token).
    const items =
      state.mode === 'full'
        ? all.filter((o) => (state.showDeleted || !o.cancelled) && (state.timeMin === null || o.endMs > state.timeMin) && (state.timeMax === null || o.startMs < state.timeMax))
        : all.filter((o) => o.updatedSeq > state.since && o.updatedSeq <= state.snap);
    const keyOf = state.mode === 'full' ? (o: Occurrence) => sortKey(o.startMs, o.id) : (o: Occurrence) => sortKey(o.updatedSeq, o.id);
    const { page, last, more } = pageAfter(items, keyOf, state.after, maxResults);
    sendJson(res, 200, {
      kind: 'calendar#events',
      etag: `"${calendar.seq}"`,
      summary: calendar.name,
      updated: new Date(this.now()).toISOString(),
      timeZone: 'UTC',
      accessRole: 'owner',
      defaultReminders: [{ method: 'popup', minutes: 10 }],
      ...(more ? { nextPageToken: encodeToken({ ...state, after: last }) } : { nextSyncToken: encodeToken({ cal: calendar.id, seq: state.snap, gen: calendar.tokenGeneration } satisfies SyncTokenState) }),
      items: page.map((o) => (o.cancelled && state.mode === 'incremental' ? this.cancelledEvent(o) : this.event(o, entry.account))),
    });
  }

  private time(epochMs: number) {
    return { dateTime: new Date(epochMs).toISOString().replace('.000Z', 'Z'), timeZone: 'UTC' };
  }

  private cancelledEvent(o: Occurrence) {
    return {
      kind: 'calendar#event', etag: `"${o.updatedSeq}"`, id: o.id, status: 'cancelled',
      ...(o.seriesId ? { recurringEventId: o.seriesId, originalStartTime: this.time(o.originalStartMs!) } : {}),
    };
  }

  private event(o: Occurrence, account: FakeAccount) {
    const meet = o.meetingUrl && new URL(o.meetingUrl).hostname === 'meet.google.com';
    return {
      kind: 'calendar#event',
      etag: `"${o.updatedSeq}"`,
      id: o.id,
      status: o.cancelled ? 'cancelled' : 'confirmed',
      htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(o.id).toString('base64url')}`,
      created: new Date(o.createdAtMs).toISOString(),
      updated: new Date(o.updatedAtMs).toISOString(),
      summary: o.summary,
      ...(o.description ? { description: o.description } : {}),
      ...(o.location ? { location: o.location } : {}),
      creator: { email: o.organizer.email, ...(o.organizer.email === account.email ? { self: true } : {}) },
      organizer: { email: o.organizer.email, ...(o.organizer.name ? { displayName: o.organizer.name } : {}), ...(o.organizer.email === account.email ? { self: true } : {}) },
      start: this.time(o.startMs),
      end: this.time(o.endMs),
      ...(o.seriesId ? { recurringEventId: o.seriesId, originalStartTime: this.time(o.originalStartMs!) } : {}),
      iCalUID: `${o.seriesId ?? o.id}@google.com`,
      sequence: 0,
      attendees: o.attendees.map((a) => ({
        email: a.email, ...(a.name ? { displayName: a.name } : {}), responseStatus: 'needsAction', ...(a.email === account.email ? { self: true } : {}),
      })),
      ...(o.meetingUrl && meet ? { hangoutLink: o.meetingUrl } : {}),
      ...(o.meetingUrl
        ? {
            conferenceData: {
              entryPoints: [{ entryPointType: 'video', uri: o.meetingUrl, label: o.meetingUrl.replace(/^https:\/\//, '') }],
              conferenceSolution: meet ? { key: { type: 'hangoutsMeet' }, name: 'Google Meet' } : { key: { type: 'addOn' }, name: 'Meeting' },
              conferenceId: new URL(o.meetingUrl).pathname.slice(1),
            },
          }
        : {}),
      reminders: { useDefault: true },
      eventType: 'default',
    };
  }

  private watch(res: http.ServerResponse, text: string, entry: { calendar: FakeCalendar }): void {
    this.calls.push('POST events.watch');
    const body = parseJson(text) as { id?: unknown; type?: unknown; address?: unknown; token?: unknown; params?: { ttl?: unknown } } | undefined;
    if (!body || typeof body.id !== 'string' || body.id.length === 0 || body.id.length > 64) return sendJson(res, 400, apiError(400, 'Channel id must be given.', 'required'));
    if (body.type !== 'web_hook') return sendJson(res, 400, apiError(400, `Unsupported push channel type ${String(body.type)}.`, 'push.channelTypeUnsupported'));
    if (typeof body.address !== 'string' || !acceptableNoticeUrl(body.address)) {
      return sendJson(res, 400, apiError(400, `WebHook callback must be HTTPS: ${String(body.address)}`, 'push.webhookUrlNotHttps'));
    }
    if (this.channels.has(body.id)) return sendJson(res, 400, apiError(400, `Channel id ${body.id} not unique`, 'channelIdNotUnique'));
    const ttlSeconds = Number(body.params?.ttl ?? 604800);
    const channel: Channel = {
      id: body.id,
      resourceId: randomBytes(20).toString('base64url'),
      calendar: entry.calendar,
      address: body.address,
      token: typeof body.token === 'string' ? body.token : null,
      expiresMs: this.now() + Math.min(Math.max(ttlSeconds, 1), 30 * 24 * 3600) * 1000,
      messages: 0,
    };
    this.channels.set(channel.id, channel);
    sendJson(res, 200, {
      kind: 'api#channel',
      id: channel.id,
      resourceId: channel.resourceId,
      resourceUri: `${this.apiBaseUrl}calendar/v3/calendars/${encodeURIComponent(entry.calendar.id)}/events?alt=json`,
      ...(channel.token !== null ? { token: channel.token } : {}),
      expiration: String(channel.expiresMs),
    });
    // Google announces a new channel with a `sync` notice.
    setImmediate(() => this.notify(channel, 'sync'));
  }

  private stopChannel(res: http.ServerResponse, text: string): void {
    this.calls.push('POST channels.stop');
    const body = parseJson(text) as { id?: unknown; resourceId?: unknown } | undefined;
    const channel = typeof body?.id === 'string' ? this.channels.get(body.id) : undefined;
    if (!channel || channel.resourceId !== body?.resourceId) {
      return sendJson(res, 404, apiError(404, `Channel '${String(body?.id)}' not found for project '000000000000'`, 'notFound'));
    }
    this.channels.delete(channel.id);
    res.writeHead(204).end();
  }

  private notifyChannels(calendar: FakeCalendar): void {
    for (const channel of this.channels.values()) if (channel.calendar === calendar) this.notify(channel, 'exists');
  }

  private notify(channel: Channel, state: 'sync' | 'exists'): void {
    if (channel.expiresMs <= this.now()) {
      this.channels.delete(channel.id);
      return;
    }
    channel.messages += 1;
    const headers: Record<string, string> = {
      'x-goog-channel-id': channel.id,
      'x-goog-channel-expiration': new Date(channel.expiresMs).toUTCString(),
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-uri': `${this.apiBaseUrl}calendar/v3/calendars/${encodeURIComponent(channel.calendar.id)}/events?alt=json`,
      'x-goog-resource-state': state,
      'x-goog-message-number': String(channel.messages),
      ...(channel.token !== null ? { 'x-goog-channel-token': channel.token } : {}),
    };
    const sent = postNotice(channel.address, headers, '', state, 10_000).then((notice) => {
      this.notices.push(notice);
    });
    this.pendingNotices.add(sent);
    void sent.finally(() => this.pendingNotices.delete(sent));
  }

  /** The instance id Google gives the n-th instance of a series. */
  static instanceId(seriesId: string, originalStartMs: number): string {
    return `${seriesId}_${compactUtc(originalStartMs)}`;
  }
}
