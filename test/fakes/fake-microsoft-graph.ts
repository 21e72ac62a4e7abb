import { randomBytes, randomUUID } from 'node:crypto';
import https from 'node:https';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeToken, encodeToken, FakeCalendar, pageAfter, sortKey, type Occurrence } from './fake-calendar';
import { FakeOAuth, readTokenForm, type FakeAccount } from './fake-oauth';
import { acceptableNoticeUrl, parseJson, postNotice, readBody, sendJson, type DeliveredNotice } from './http-kit';

/**
 * A local Microsoft: the identity platform's token endpoint (refresh-token grant, rotating refresh tokens)
 * and the parts of Graph v1.0 the service uses, over HTTPS as Graph is (its client sends tokens to https
 * hosts only): /me/calendars, calendarView/delta with `Prefer: odata.maxpagesize`, `@odata.nextLink`
 * ($skiptoken) and `@odata.deltaLink` ($deltatoken), 410 once a delta token expired, `@removed` for deleted
 * items and for changed items outside the window; subscriptions with the `validationToken` handshake,
 * `clientState` on every notification, renewal by PATCH, deletion, and the 4 230-minute lifetime cap.
 */
interface Subscription {
  readonly id: string;
  readonly calendar: FakeCalendar;
  readonly resource: string;
  readonly notificationUrl: string;
  readonly clientState: string | null;
  readonly changeTypes: readonly string[];
  expiresMs: number;
}

interface SkipState {
  readonly mode: 'full' | 'incremental';
  readonly cal: string;
  readonly snap: number;
  readonly since: number;
  readonly after: string | null;
  readonly start: number;
  readonly end: number;
  readonly gen: number;
}

interface DeltaState {
  readonly cal: string;
  readonly seq: number;
  readonly start: number;
  readonly end: number;
  readonly gen: number;
}

export const MAX_EVENT_SUBSCRIPTION_MINUTES = 4230;

const graphError = (code: string, message: string) => ({
  error: { code, message, innerError: { date: new Date().toISOString().slice(0, 19), 'request-id': randomUUID(), 'client-request-id': randomUUID() } },
});

/** Graph's own spelling of a time: seven fraction digits, no zone (the zone is named beside it). */
const graphTime = (epochMs: number) => ({ dateTime: new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, '.$10000'), timeZone: 'UTC' });

export interface GraphFakeOptions {
  readonly certPem: string;
  readonly keyPem: string;
  readonly now?: () => number;
}

export class FakeMicrosoftGraph {
  readonly oauth: FakeOAuth;
  readonly notices: DeliveredNotice[] = [];
  readonly calls: string[] = [];
  private readonly calendars = new Map<string, { readonly calendar: FakeCalendar; readonly account: FakeAccount; readonly userId: string }>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly userIds = new Map<string, string>();
  private server: https.Server | null = null;
  private readonly pendingNotices = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: GraphFakeOptions) {
    this.now = options.now ?? Date.now;
    this.oauth = new FakeOAuth(this.now, { accessTokenPrefix: 'eyJ0eXAiOiJKV1QiLCJub25jZSI6.', refreshTokenPrefix: '0.AX', rotateRefreshTokens: true });
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** MICROSOFT_GRAPH_BASE_URL */
  get graphBaseUrl(): string {
    return this.url;
  }

  /** MICROSOFT_OAUTH_TOKEN_URL */
  get tokenUrl(): string {
    return `${this.url}/common/oauth2/v2.0/token`;
  }

  /** Graph calendars have opaque ids; the account's default calendar comes first. */
  addCalendar(account: FakeAccount, options: { id?: string; name?: string; primary?: boolean } = {}): FakeCalendar {
    const primary = options.primary ?? true;
    const id = options.id ?? `AAMkA${randomBytes(12).toString('base64url')}=`;
    const calendar = new FakeCalendar(id, options.name ?? 'Calendar', { email: account.email, name: account.name }, primary, this.now);
    let userId = this.userIds.get(account.email);
    if (!userId) {
      userId = randomUUID();
      this.userIds.set(account.email, userId);
    }
    this.calendars.set(id, { calendar, account, userId });
    calendar.onChange((ids) => this.notifySubscriptions(calendar, ids));
    return calendar;
  }

  /** Graph's id of an item of the calendar (a one-off event or an instance). */
  graphIdOf(itemId: string): string {
    return `AAMkA${Buffer.from(itemId).toString('base64url')}`;
  }

  liveSubscriptions(): readonly { id: string; calendarId: string; expiresMs: number; clientState: string | null }[] {
    return [...this.subscriptions.values()]
      .filter((s) => s.expiresMs > this.now())
      .map((s) => ({ id: s.id, calendarId: s.calendar.id, expiresMs: s.expiresMs, clientState: s.clientState }));
  }

  async start(): Promise<this> {
    this.server = https.createServer({ cert: this.options.certPem, key: this.options.keyPem }, (req, res) => {
      void this.handle(req, res).catch((err: Error) => sendJson(res, 500, graphError('generalException', err.message)));
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

  async noticesSettled(): Promise<void> {
    while (this.pendingNotices.size > 0) await Promise.all([...this.pendingNotices]);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://fake');
    const body = await readBody(req);
    if (req.method === 'POST' && /^\/[^/]+\/oauth2\/v2\.0\/token$/.test(url.pathname)) return this.token(req, res, body);
    const account = this.oauth.accountOf(req.headers.authorization);
    if (!account) return sendJson(res, 401, graphError('InvalidAuthenticationToken', req.headers.authorization ? 'Lifetime validation failed, the token is expired.' : 'Access token is empty.'));
    const path = url.pathname.split('/').map((p) => decodeURIComponent(p));
    if (path[1] !== 'v1.0') return sendJson(res, 400, graphError('BadRequest', 'Invalid version.'));
    const rest = path.slice(2);
    if (req.method === 'GET' && rest.join('/') === 'me/calendars') return this.listCalendars(res, url, account);
    if (req.method === 'GET' && rest.length === 5 && rest[0] === 'me' && rest[1] === 'calendars' && rest[3] === 'calendarView' && rest[4] === 'delta') {
      const entry = this.calendars.get(rest[2]!);
      if (!entry || entry.account.email !== account.email) return sendJson(res, 404, graphError('ErrorItemNotFound', 'The specified object was not found in the store.'));
      return this.delta(req, res, url, entry);
    }
    if (rest[0] === 'subscriptions') {
      if (req.method === 'POST' && rest.length === 1) return this.subscribe(res, body, account);
      const subscription = rest.length === 2 ? this.subscriptions.get(rest[1]!) : undefined;
      if (!subscription || subscription.expiresMs <= this.now()) {
        return sendJson(res, 404, graphError('ResourceNotFound', `The object was not found. subscriptionId: ${rest[1] ?? ''}`));
      }
      if (req.method === 'PATCH') return this.renew(res, body, subscription);
      if (req.method === 'DELETE') {
        this.calls.push('DELETE subscription');
        this.subscriptions.delete(subscription.id);
        return void res.writeHead(204).end();
      }
    }
    sendJson(res, 400, graphError('BadRequest', `Resource not found for the segment '${rest[rest.length - 1] ?? ''}'.`));
  }

  private token(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const form = readTokenForm(body, req.headers.authorization);
    const result = this.oauth.refresh(form.grantType, form.clientId, form.secret, form.refreshToken);
    if (result.ok) {
      sendJson(res, 200, {
        token_type: 'Bearer', scope: 'https://graph.microsoft.com/Calendars.Read', expires_in: result.expiresIn, ext_expires_in: result.expiresIn,
        access_token: result.accessToken, ...(result.refreshToken ? { refresh_token: result.refreshToken } : {}),
      });
      return;
    }
    const codes: Record<string, [number, string]> = {
      unknown_client: [700016, `AADSTS700016: Application with identifier '${form.clientId ?? ''}' was not found in the directory.`],
      bad_secret: [7000215, 'AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.'],
      revoked: [50173, 'AADSTS50173: The provided grant has expired due to it being revoked, a fresh auth token is needed.'],
      unknown_token: [9002313, 'AADSTS9002313: Invalid request. Request is malformed or invalid.'],
      other: [900144, "AADSTS900144: The request body must contain the following parameter: 'grant_type'."],
    };
    const [code, description] = codes[result.kind]!;
    sendJson(res, result.status, {
      error: result.kind === 'unknown_client' ? 'unauthorized_client' : result.error, error_description: description, error_codes: [code],
      timestamp: new Date(this.now()).toISOString(), trace_id: randomUUID(), correlation_id: randomUUID(),
    });
  }

  private listCalendars(res: http.ServerResponse, url: URL, account: FakeAccount): void {
    this.calls.push('GET me/calendars');
    const mine = [...this.calendars.values()].filter((c) => c.account.email === account.email).map((c) => c.calendar);
    const top = Math.min(Number(url.searchParams.get('$top') ?? 10) || 10, 1000);
    const skip = Number(url.searchParams.get('$skip') ?? 0) || 0;
    const page = mine.slice(skip, skip + top);
    sendJson(res, 200, {
      '@odata.context': `${this.url}/v1.0/$metadata#users('${encodeURIComponent(account.email)}')/calendars`,
      ...(skip + top < mine.length ? { '@odata.nextLink': `${this.url}/v1.0/me/calendars?$top=${top}&$skip=${skip + top}` } : {}),
      value: page.map((c) => ({
        id: c.id, name: c.name, color: 'auto', hexColor: '', isDefaultCalendar: c.primary, changeKey: String(c.seq), canShare: true, canViewPrivateItems: true,
        canEdit: true, allowedOnlineMeetingProviders: ['teamsForBusiness'], defaultOnlineMeetingProvider: 'teamsForBusiness', isTallyingResponses: true,
        isRemovable: !c.primary, owner: { name: account.name, address: account.email },
      })),
    });
  }

  private delta(req: http.IncomingMessage, res: http.ServerResponse, url: URL, entry: { calendar: FakeCalendar; account: FakeAccount }): void {
    const { calendar } = entry;
    const q = url.searchParams;
    const prefer = [req.headers.prefer ?? ''].flat().join(', ');
    const size = Math.min(Number(/odata\.maxpagesize=(\d+)/.exec(prefer)?.[1] ?? 10) || 10, 1000);
    let state: SkipState;
    const skip = q.get('$skiptoken');
    const delta = q.get('$deltatoken');
    if (skip) {
      const decoded = decodeToken<SkipState>(skip);
      if (!decoded || decoded.cal !== calendar.id) return sendJson(res, 400, graphError('ErrorInvalidParameter', 'The skip token is not valid.'));
      state = decoded;
    } else if (delta) {
      const decoded = decodeToken<DeltaState>(delta);
      if (!decoded || decoded.cal !== calendar.id) return sendJson(res, 400, graphError('ErrorInvalidParameter', 'The delta token is not valid.'));
      if (decoded.gen !== calendar.tokenGeneration) {
        this.calls.push('GET delta 410');
        return sendJson(res, 410, graphError('syncStateNotFound', 'The sync state generation is not found. Restart the synchronization with an initial delta request.'), {
          location: `${this.url}/v1.0/me/calendars/${encodeURIComponent(calendar.id)}/calendarView/delta?$deltatoken=`,
        });
      }
      state = { mode: 'incremental', cal: calendar.id, snap: calendar.seq, since: decoded.seq, after: null, start: decoded.start, end: decoded.end, gen: decoded.gen };
    } else {
      const start = Date.parse(q.get('startDateTime') ?? q.get('startdatetime') ?? '');
      const end = Date.parse(q.get('endDateTime') ?? q.get('enddatetime') ?? '');
      if (Number.isNaN(start) || Number.isNaN(end)) {
        return sendJson(res, 400, graphError('ErrorInvalidParameter', 'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.'));
      }
      state = { mode: 'full', cal: calendar.id, snap: calendar.seq, since: 0, after: null, start, end, gen: calendar.tokenGeneration };
    }
    this.calls.push(`GET delta ${state.mode}`);
    const inside = (o: Occurrence) => o.startMs < state.end && o.endMs > state.start;
    const all = calendar.occurrences();
    const items =
      state.mode === 'full' ? all.filter((o) => !o.cancelled && inside(o)) : all.filter((o) => o.updatedSeq > state.since && o.updatedSeq <= state.snap);
    const keyOf = state.mode === 'full' ? (o: Occurrence) => sortKey(o.startMs, o.id) : (o: Occurrence) => sortKey(o.updatedSeq, o.id);
    const { page, last, more } = pageAfter(items, keyOf, state.after, size);
    const link = `${this.url}/v1.0/me/calendars/${encodeURIComponent(calendar.id)}/calendarView/delta`;
    sendJson(
      res,
      200,
      {
        '@odata.context': `${this.url}/v1.0/$metadata#Collection(event)`,
        ...(more
          ? { '@odata.nextLink': `${link}?$skiptoken=${encodeToken({ ...state, after: last })}` }
          : { '@odata.deltaLink': `${link}?$deltatoken=${encodeToken({ cal: calendar.id, seq: state.snap, start: state.start, end: state.end, gen: calendar.tokenGeneration } satisfies DeltaState)}` }),
        // Changed items outside the window come as removed, as Graph documents.
        value: page.map((o) => (o.cancelled || !inside(o) ? this.removed(o) : this.event(o, entry.account))),
      },
      { 'preference-applied': `odata.maxpagesize=${size}, outlook.timezone="UTC"` },
    );
  }

  private removed(o: Occurrence) {
    return { '@odata.type': '#microsoft.graph.event', id: this.graphIdOf(o.id), '@removed': { reason: 'deleted' } };
  }

  private event(o: Occurrence, account: FakeAccount) {
    const organizer = o.organizer.email === account.email;
    const teams = o.meetingUrl !== null && /(^|\.)teams\.(microsoft\.com|live\.com)$|^tm\.localhost$/.test(new URL(o.meetingUrl).hostname);
    return {
      '@odata.type': '#microsoft.graph.event',
      '@odata.etag': `W/"${Buffer.from(String(o.updatedSeq)).toString('base64')}"`,
      id: this.graphIdOf(o.id),
      createdDateTime: new Date(o.createdAtMs).toISOString(),
      lastModifiedDateTime: new Date(o.updatedAtMs).toISOString(),
      changeKey: Buffer.from(String(o.updatedSeq)).toString('base64'),
      categories: [],
      transactionId: null,
      originalStartTimeZone: 'UTC',
      originalEndTimeZone: 'UTC',
      iCalUId: `040000008200E00074C5B7101A82E008${Buffer.from(o.seriesId ?? o.id).toString('hex').toUpperCase()}`,
      reminderMinutesBeforeStart: 15,
      isReminderOn: true,
      hasAttachments: false,
      subject: o.summary,
      bodyPreview: o.description ?? '',
      importance: 'normal',
      sensitivity: 'normal',
      isAllDay: false,
      isCancelled: false,
      isOrganizer: organizer,
      responseRequested: true,
      seriesMasterId: o.seriesId ? this.graphIdOf(o.seriesId) : null,
      showAs: 'busy',
      type: o.seriesId ? (o.exception ? 'exception' : 'occurrence') : 'singleInstance',
      webLink: `https://outlook.office365.com/owa/?itemid=${encodeURIComponent(this.graphIdOf(o.id))}&exvsurl=1&path=/calendar/item`,
      onlineMeetingUrl: null,
      isOnlineMeeting: teams,
      onlineMeetingProvider: teams ? 'teamsForBusiness' : 'unknown',
      allowNewTimeProposals: true,
      isDraft: false,
      hideAttendees: false,
      responseStatus: { response: organizer ? 'organizer' : 'none', time: '0001-01-01T00:00:00Z' },
      body: { contentType: 'html', content: `<html><body>${o.description ?? ''}${o.meetingUrl && !teams ? ` ${o.meetingUrl}` : ''}</body></html>` },
      start: graphTime(o.startMs),
      end: graphTime(o.endMs),
      location: { displayName: o.location ?? (o.meetingUrl && !teams ? o.meetingUrl : ''), locationType: 'default', uniqueIdType: 'unknown' },
      locations: [],
      recurrence: null,
      attendees: o.attendees.map((a) => ({ type: 'required', status: { response: 'none', time: '0001-01-01T00:00:00Z' }, emailAddress: { name: a.name ?? a.email, address: a.email } })),
      organizer: { emailAddress: { name: o.organizer.name ?? o.organizer.email, address: o.organizer.email } },
      onlineMeeting: teams ? { joinUrl: o.meetingUrl } : null,
    };
  }

  private async subscribe(res: http.ServerResponse, text: string, account: FakeAccount): Promise<void> {
    this.calls.push('POST subscriptions');
    const body = parseJson(text) as { changeType?: unknown; notificationUrl?: unknown; resource?: unknown; expirationDateTime?: unknown; clientState?: unknown } | undefined;
    const resource = typeof body?.resource === 'string' ? body.resource.replace(/^\//, '') : '';
    const calendarId = /^me\/calendars\/([^/]+)\/events$/.exec(resource)?.[1];
    const entry = calendarId ? this.calendars.get(decodeURIComponent(calendarId)) : undefined;
    if (!entry || entry.account.email !== account.email) return sendJson(res, 400, graphError('ExtensionError', `Operation: Create; Exception: [Status Code: NotFound; Reason: resource '${resource}' not found]`));
    const changeTypes = typeof body?.changeType === 'string' ? body.changeType.split(',').map((c) => c.trim()) : [];
    if (changeTypes.length === 0 || changeTypes.some((c) => !['created', 'updated', 'deleted'].includes(c))) {
      return sendJson(res, 400, graphError('InvalidRequest', "Invalid 'changeType' attribute."));
    }
    const expires = this.checkExpiry(body?.expirationDateTime);
    if (typeof expires === 'string') return sendJson(res, 400, graphError('InvalidRequest', expires));
    if (typeof body?.notificationUrl !== 'string' || !acceptableNoticeUrl(body.notificationUrl)) {
      return sendJson(res, 400, graphError('InvalidRequest', 'The Notification Url must be https.'));
    }
    const clientState = typeof body.clientState === 'string' ? body.clientState : null;
    if (clientState !== null && clientState.length > 128) return sendJson(res, 400, graphError('InvalidRequest', 'clientState must be 128 characters or fewer.'));
    // The validation handshake: the endpoint must echo the token as text/plain with 200 within 10 s.
    const validationToken = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
    const separator = body.notificationUrl.includes('?') ? '&' : '?';
    const answer = await postNotice(`${body.notificationUrl}${separator}validationToken=${encodeURIComponent(validationToken)}`, { 'content-type': 'text/plain; charset=utf-8' }, '', 'validation', 10_000);
    this.notices.push(answer);
    if (answer.status !== 200 || answer.body !== validationToken) {
      return sendJson(res, 400, graphError('InvalidRequest', 'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.'));
    }
    const subscription: Subscription = {
      id: randomUUID(), calendar: entry.calendar, resource, notificationUrl: body.notificationUrl, clientState, changeTypes, expiresMs: expires,
    };
    this.subscriptions.set(subscription.id, subscription);
    sendJson(res, 201, this.subscriptionBody(subscription));
  }

  private renew(res: http.ServerResponse, text: string, subscription: Subscription): void {
    this.calls.push('PATCH subscription');
    const body = parseJson(text) as { expirationDateTime?: unknown } | undefined;
    const expires = this.checkExpiry(body?.expirationDateTime);
    if (typeof expires === 'string') return sendJson(res, 400, graphError('InvalidRequest', expires));
    subscription.expiresMs = expires;
    sendJson(res, 200, this.subscriptionBody(subscription));
  }

  private checkExpiry(value: unknown): number | string {
    const expires = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(expires)) return "Invalid 'expirationDateTime' attribute.";
    if (expires <= this.now()) return 'Subscription expiration can only be in the future.';
    if (expires > this.now() + MAX_EVENT_SUBSCRIPTION_MINUTES * 60_000) {
      return `Subscription expiration can only be ${MAX_EVENT_SUBSCRIPTION_MINUTES} minutes in the future.`;
    }
    return expires;
  }

  private subscriptionBody(s: Subscription) {
    return {
      '@odata.context': `${this.url}/v1.0/$metadata#subscriptions/$entity`,
      id: s.id, resource: s.resource, applicationId: '24d3b144-21ae-4080-943f-7067b395b913', changeType: s.changeTypes.join(','), clientState: s.clientState,
      notificationUrl: s.notificationUrl, expirationDateTime: new Date(s.expiresMs).toISOString(), creatorId: '8ee44408-0679-472c-bc2a-692812af3437',
      latestSupportedTlsVersion: 'v1_2', notificationContentType: null, includeResourceData: false, encryptionCertificate: null,
    };
  }

  private notifySubscriptions(calendar: FakeCalendar, ids: readonly string[]): void {
    const entry = this.calendars.get(calendar.id)!;
    const byId = new Map(calendar.occurrences().map((o) => [o.id, o]));
    for (const subscription of this.subscriptions.values()) {
      if (subscription.calendar !== calendar || subscription.expiresMs <= this.now()) continue;
      const value = ids.flatMap((id) => {
        const o = byId.get(id);
        const changeType = !o || o.cancelled ? 'deleted' : o.createdAtMs === o.updatedAtMs && !o.exception ? 'created' : 'updated';
        if (!subscription.changeTypes.includes(changeType)) return [];
        const graphId = this.graphIdOf(id);
        return [{
          subscriptionId: subscription.id,
          subscriptionExpirationDateTime: new Date(subscription.expiresMs).toISOString(),
          changeType,
          resource: `Users/${entry.userId}/Events/${graphId}`,
          resourceData: { '@odata.type': '#Microsoft.Graph.Event', '@odata.id': `Users/${entry.userId}/Events/${graphId}`, '@odata.etag': `W/"${o?.updatedSeq ?? 0}"`, id: graphId },
          clientState: subscription.clientState,
          tenantId: '84bd8158-6d4d-4958-8b9f-9d6445542f95',
        }];
      });
      if (value.length === 0) continue;
      const sent = postNotice(subscription.notificationUrl, { 'content-type': 'application/json' }, JSON.stringify({ value }), 'notification', 3_000).then((notice) => {
        this.notices.push(notice);
      });
      this.pendingNotices.add(sent);
      void sent.finally(() => this.pendingNotices.delete(sent));
    }
  }
}
