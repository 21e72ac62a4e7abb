import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openCalendarProviders, type CalendarProviders } from '../../src/adapters/calendar-providers';
import { CalendarProviderError, type ProviderItem, type ProviderSession, type SyncStart } from '../../src/adapters/calendar-providers/port';
import type { CalendarPlatform } from '../../src/domain/calendar/calendar-events';
import type { FakeCalendar } from '../fakes/fake-calendar';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MEET = 'https://meet.google.com/abc-defg-hij';
const TEAMS = 'https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0';

/** A receiver of provider notices that answers Graph's validation handshake as a service must. */
class NoticeReceiver {
  readonly received: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  private server: http.Server | null = null;
  echoValidation = true;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/push`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        this.received.push({ url: req.url ?? '', headers: req.headers, body });
        const token = new URL(req.url ?? '/', 'http://x').searchParams.get('validationToken');
        if (token !== null && this.echoValidation) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(token);
        res.writeHead(token !== null ? 500 : 202).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

describe('calendar providers: the official Google and Microsoft clients against local fakes of their services', function () {
  this.timeout(30_000);
  let fakes: CalendarFakes;
  let providers: CalendarProviders;
  let receiver: NoticeReceiver;
  const t0 = Date.parse('2026-06-01T09:00:00Z');
  const window = { start: new Date(t0 - DAY).toISOString(), end: new Date(t0 + 90 * DAY).toISOString() };

  before(async () => {
    fakes = await startCalendarFakes();
    providers = openCalendarProviders(fakes.settings, { sandboxHosts: false, pageSize: 3, requestOptions: fakes.requestOptions });
    receiver = await new NoticeReceiver().start();
  });
  after(async () => {
    await receiver.stop();
    await fakes.stop();
  });

  const fakeOf = (platform: CalendarPlatform) => (platform === 'google' ? fakes.google : fakes.graph);

  /** An account with a primary calendar (a weekly series and a one-off) and a second calendar. */
  const account = (platform: CalendarPlatform, email: string) => {
    const fake = fakeOf(platform);
    fake.oauth.registerClient(`${email}-client`, 'client-secret');
    const who = { email, name: email.split('@')[0]! };
    const calendar = fake.addCalendar(who, { name: 'Work', primary: true });
    fake.addCalendar(who, { id: platform === 'google' ? `team-${email}` : undefined, name: 'Team', primary: false });
    const refresh_token = fake.oauth.issueRefreshToken(`${email}-client`, who);
    const rotated: string[] = [];
    const session: ProviderSession = {
      credentials: { client_id: `${email}-client`, client_secret: 'client-secret', refresh_token },
      onRefreshTokenRotated: async (token) => void rotated.push(token),
    };
    return { calendar, session, rotated, who };
  };

  const readAll = async (platform: CalendarPlatform, session: ProviderSession, calendarId: string, start: SyncStart) => {
    const pages: (readonly ProviderItem[])[] = [];
    const { cursor } = await providers[platform].sync(session, calendarId, start, async (items) => void pages.push(items));
    return { pages, items: pages.flat(), cursor };
  };

  const seed = (calendar: FakeCalendar, meetingUrl: string) => {
    const series = calendar.addSeries({
      summary: 'Weekly sync', start: t0 + HOUR, end: t0 + 2 * HOUR, count: 4, intervalMs: 7 * DAY, meetingUrl,
      attendees: [{ email: 'bob@example.com', name: 'Bob' }, { email: 'carol@example.com' }],
    });
    const lunch = calendar.addEvent({ summary: 'Lunch', start: t0 + 3 * HOUR, end: t0 + 4 * HOUR, description: `Join at ${MEET} please.` });
    calendar.addEvent({ summary: 'Long ago', start: t0 - 10 * DAY, end: t0 - 10 * DAY + HOUR });
    return { series, lunch };
  };

  for (const platform of ['google', 'microsoft'] as const) {
    describe(platform, () => {
      const meetingUrl = platform === 'google' ? MEET : TEAMS;

      it('lists the account’s calendars with their addresses and which one is primary', async () => {
        const { session, who } = account(platform, `list-${platform}@example.com`);
        const calendars = await providers[platform].listCalendars(session);
        assert.equal(calendars.length, 2);
        assert.deepEqual(calendars.map((c) => c.is_primary).sort(), [false, true]);
        assert.ok(calendars.every((c) => c.email.length > 0));
        if (platform === 'microsoft') assert.ok(calendars.every((c) => c.email === who.email));
        else assert.equal(calendars.find((c) => c.is_primary)!.email, who.email);
      });

      it('a full sync reads the window page by page: instances of a series with their series id, one-offs, meeting links, attendees', async () => {
        const { calendar, session } = account(platform, `full-${platform}@example.com`);
        const { series } = seed(calendar, meetingUrl);
        const { pages, items, cursor } = await readAll(platform, session, calendar.id, { kind: 'full', window });
        assert.ok(pages.length >= 2, `${pages.length} pages of at most 3`);
        assert.ok(pages.every((p) => p.length <= 3));
        const events = items.flatMap((i) => (i.kind === 'upsert' ? [i.event] : []));
        assert.equal(events.length, 5, 'four instances and the lunch; the event before the window is not read');
        const instances = events.filter((e) => e.series_id !== null);
        assert.equal(instances.length, 4);
        assert.ok(instances.every((e) => e.is_recurring && e.name === 'Weekly sync' && e.meeting_url === meetingUrl));
        assert.deepEqual(instances.map((e) => e.start_time), [0, 1, 2, 3].map((i) => new Date(t0 + HOUR + i * 7 * DAY).toISOString()));
        assert.equal(new Set(instances.map((e) => e.series_id)).size, 1);
        if (platform === 'google') assert.equal(instances[0]!.series_id, series);
        assert.deepEqual(instances[0]!.attendees, [{ email: 'bob@example.com', name: 'Bob' }, { email: 'carol@example.com', name: platform === 'google' ? null : 'carol@example.com' }]);
        assert.equal(instances[0]!.is_organizer, true);
        const lunch = events.find((e) => e.name === 'Lunch')!;
        assert.equal(lunch.series_id, null);
        assert.equal(lunch.meeting_url, MEET, 'found in the text of the event');
        assert.ok(typeof lunch.raw.id === 'string');
        assert.ok(cursor.length > 0);
      });

      it('an incremental sync brings exactly what changed: a moved instance, a cancelled one, a new event, a longer series', async () => {
        const { calendar, session } = account(platform, `inc-${platform}@example.com`);
        const { series } = seed(calendar, meetingUrl);
        const first = await readAll(platform, session, calendar.id, { kind: 'full', window });
        const nothing = await readAll(platform, session, calendar.id, { kind: 'incremental', cursor: first.cursor });
        assert.deepEqual(nothing.items, [], 'nothing changed yet');

        const moved = calendar.moveInstance(series, 1, t0 + 8 * DAY + 5 * HOUR, t0 + 8 * DAY + 6 * HOUR);
        const cancelled = calendar.cancelInstance(series, 2);
        calendar.addEvent({ summary: 'New one', start: t0 + 2 * DAY, end: t0 + 2 * DAY + HOUR, meetingUrl });
        const [added] = calendar.extendSeries(series);
        const next = await readAll(platform, session, calendar.id, { kind: 'incremental', cursor: nothing.cursor });
        const idOf = (id: string) => (platform === 'google' ? id : fakes.graph.graphIdOf(id));
        const upserts = next.items.flatMap((i) => (i.kind === 'upsert' ? [i.event] : []));
        const removals = next.items.flatMap((i) => (i.kind === 'removed' ? [i.provider_event_id] : []));
        assert.deepEqual(removals, [idOf(cancelled)]);
        assert.deepEqual(upserts.map((e) => e.name).sort(), ['New one', 'Weekly sync', 'Weekly sync']);
        const movedEvent = upserts.find((e) => e.provider_event_id === idOf(moved))!;
        assert.equal(movedEvent.start_time, new Date(t0 + 8 * DAY + 5 * HOUR).toISOString());
        assert.ok(upserts.some((e) => e.provider_event_id === idOf(added!)), 'the new instance of the series');
        assert.notEqual(next.cursor, nothing.cursor);
      });

      it('an expired sync state is a sync_token_expired error (Google 410 fullSyncRequired, Graph 410 syncStateNotFound)', async () => {
        const { calendar, session } = account(platform, `gone-${platform}@example.com`);
        seed(calendar, meetingUrl);
        const first = await readAll(platform, session, calendar.id, { kind: 'full', window });
        calendar.expireSyncTokens();
        await assert.rejects(readAll(platform, session, calendar.id, { kind: 'incremental', cursor: first.cursor }), (err: unknown) => {
          assert.ok(err instanceof CalendarProviderError);
          assert.equal(err.kind, 'sync_token_expired');
          return true;
        });
      });

      it('an expired access token is refreshed with the refresh token, unseen by the caller', async () => {
        const { calendar, session } = account(platform, `expiry-${platform}@example.com`);
        seed(calendar, meetingUrl);
        await readAll(platform, session, calendar.id, { kind: 'full', window });
        const before = fakeOf(platform).oauth.refreshes;
        fakeOf(platform).oauth.expireAccessTokens();
        const again = await readAll(platform, session, calendar.id, { kind: 'full', window });
        assert.equal(again.items.length, 5);
        assert.ok(fakeOf(platform).oauth.refreshes > before);
      });

      it('a revoked refresh token is credentials_revoked; a wrong client secret is invalid_client', async () => {
        const { calendar, session } = account(platform, `revoked-${platform}@example.com`);
        fakeOf(platform).oauth.revoke(session.credentials.refresh_token);
        await assert.rejects(providers[platform].listCalendars(session), (err: unknown) => err instanceof CalendarProviderError && err.kind === 'credentials_revoked');
        await assert.rejects(readAll(platform, session, calendar.id, { kind: 'full', window }), (err: unknown) => err instanceof CalendarProviderError && err.kind === 'credentials_revoked');
        const other = account(platform, `secret-${platform}@example.com`);
        const wrong = { credentials: { ...other.session.credentials, client_secret: 'not-the-secret' } };
        await assert.rejects(providers[platform].listCalendars(wrong), (err: unknown) => err instanceof CalendarProviderError && err.kind === 'invalid_client');
      });

      it('a calendar the account does not have is calendar_not_found', async () => {
        const { session } = account(platform, `missing-${platform}@example.com`);
        await assert.rejects(readAll(platform, session, 'no-such-calendar', { kind: 'full', window }), (err: unknown) => err instanceof CalendarProviderError && err.kind === 'calendar_not_found');
      });

      it('a push channel posts the provider’s notices with our token, can be renewed or replaced, and closed', async () => {
        const { calendar, session } = account(platform, `push-${platform}@example.com`);
        receiver.received.length = 0;
        const expires = new Date(Date.now() + 2 * DAY).toISOString();
        const channel = await providers[platform].openChannel(session, calendar.id, {
          channel_id: `chan-${platform}`, token: 'secret-channel-token', address: `${receiver.url}?channel=chan-${platform}`, expires_at: expires, ttl_seconds: 2 * 24 * 3600,
        });
        assert.equal(channel.channel_id, `chan-${platform}`);
        assert.ok(channel.provider_channel_id.length > 0);
        calendar.addEvent({ summary: 'Ping', start: t0 + DAY, end: t0 + DAY + HOUR });
        await fakeOf(platform).noticesSettled();
        if (platform === 'google') {
          const states = receiver.received.map((r) => r.headers['x-goog-resource-state']);
          assert.deepEqual(states, ['sync', 'exists']);
          assert.ok(receiver.received.every((r) => r.headers['x-goog-channel-token'] === 'secret-channel-token' && r.headers['x-goog-channel-id'] === 'chan-google'));
          assert.equal(await providers.google.renewChannel(session, channel, expires), null, 'Google channels are replaced, not extended');
          assert.equal(fakes.google.openChannels().length, 1);
          await providers.google.closeChannel(session, channel);
          assert.equal(fakes.google.openChannels().filter((c) => c.id === 'chan-google').length, 0);
        } else {
          assert.ok(receiver.received[0]!.url.includes('validationToken='), 'the validation handshake came first');
          const notification = JSON.parse(receiver.received[1]!.body) as { value: { clientState: string; subscriptionId: string; changeType: string }[] };
          assert.equal(notification.value[0]!.clientState, 'secret-channel-token');
          assert.equal(notification.value[0]!.subscriptionId, channel.provider_channel_id);
          assert.equal(notification.value[0]!.changeType, 'created');
          assert.ok(receiver.received[1]!.url.includes('channel=chan-microsoft'), 'the query of the notification URL comes back');
          const later = new Date(Date.now() + 2.5 * DAY).toISOString();
          const renewed = await providers.microsoft.renewChannel(session, channel, later);
          assert.equal(renewed?.expires_at, later);
          await providers.microsoft.closeChannel(session, channel);
          assert.equal(fakes.graph.liveSubscriptions().length, 0);
          assert.equal(await providers.microsoft.renewChannel(session, channel, later), null, 'a subscription that is gone cannot be renewed');
        }
        await providers[platform].closeChannel(session, channel);
      });
    });
  }

  it('Microsoft rotates refresh tokens: each new one is handed to the session and works', async () => {
    const { session, rotated } = account('microsoft', 'rotate@example.com');
    await providers.microsoft.listCalendars(session);
    assert.equal(rotated.length, 1);
    assert.notEqual(rotated[0], session.credentials.refresh_token);
    const next = { credentials: { ...session.credentials, refresh_token: rotated[0]! } };
    assert.equal((await providers.microsoft.listCalendars(next)).length, 2);
  });

  it('Graph refuses a subscription whose notification URL fails the validation handshake', async () => {
    const { calendar, session } = account('microsoft', 'novalidate@example.com');
    receiver.echoValidation = false;
    try {
      await assert.rejects(
        providers.microsoft.openChannel(session, calendar.id, { channel_id: 'c', token: 't', address: receiver.url, expires_at: new Date(Date.now() + DAY).toISOString(), ttl_seconds: 86400 }),
        (err: unknown) => err instanceof CalendarProviderError && err.kind === 'channel_refused',
      );
    } finally {
      receiver.echoValidation = true;
    }
  });

  it('Graph reports a changed event that left the window as removed', async () => {
    const { calendar, session } = account('microsoft', 'window@example.com');
    const id = calendar.addEvent({ summary: 'Soon', start: t0 + DAY, end: t0 + DAY + HOUR });
    const first = await readAll('microsoft', session, calendar.id, { kind: 'full', window });
    calendar.moveEvent(id, t0 + 200 * DAY, t0 + 200 * DAY + HOUR);
    const next = await readAll('microsoft', session, calendar.id, { kind: 'incremental', cursor: first.cursor });
    assert.deepEqual(next.items, [{ kind: 'removed', provider_event_id: fakes.graph.graphIdOf(id) }]);
  });
});
