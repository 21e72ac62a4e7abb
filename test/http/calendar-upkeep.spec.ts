import assert from 'node:assert/strict';
import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { eventually } from '../support/eventually';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';
import { apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MEET = 'https://meet.google.com/abc-defg-hij';
const TEAMS = 'https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0';

/**
 * What keeps a connected calendar current when nothing asks: the periodic resync (CALENDAR_RESYNC_MINUTES)
 * and the renewal of push channels before they end. The service and the provider fakes share one injected
 * clock, moved by the test; the sync worker looks at its schedule every 20 ms of real time.
 */
describe('calendar upkeep: periodic resync and push channel renewal, on an injected clock', function () {
  this.timeout(60_000);
  let nowMs = Date.UTC(2026, 4, 4, 8);
  let fakes: CalendarFakes;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let accounts = 0;

  before(async () => {
    fakes = await startCalendarFakes(() => nowMs);
    t = await startTestService({
      clock: () => new Date(nowMs),
      calendarResyncMs: 30 * MINUTE,
      overrides: {
        calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: true, requestOptions: fakes.requestOptions }),
        calendarSync: { pollMs: 20 },
      },
    });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(async () => {
    await t.stop();
    await fakes.stop();
  });

  const connect = async (platform: 'google' | 'microsoft') => {
    accounts += 1;
    const fake = platform === 'google' ? fakes.google : fakes.graph;
    const clientId = `upkeep-${accounts}`;
    fake.oauth.registerClient(clientId, 'client-secret');
    const who = { email: `upkeep${accounts}@example.com`, name: `Upkeep ${accounts}` };
    const calendar = fake.addCalendar(who, { name: 'Work', primary: true });
    calendar.addEvent({ summary: 'First', start: nowMs + 2 * HOUR, end: nowMs + 3 * HOUR, meetingUrl: platform === 'google' ? MEET : TEAMS });
    const body = { oauth_client_id: clientId, oauth_client_secret: 'client-secret', oauth_refresh_token: fake.oauth.issueRefreshToken(clientId, who), platform: platform === 'google' ? 'Google' : 'Microsoft' };
    const created = await api.post('/calendar', { ...body, webhook_url: 'https://hooks.example.com/calendar' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.calendar.status, 'synced');
    return { calendar, calendarId: created.body.calendar.uuid as string };
  };
  const namesOf = async (calendarId: string) => ((await api.get(`/calendar_events/?calendar_id=${calendarId}&status=all`)).body.data as { name: string }[]).map((e) => e.name).sort();
  const eventReads = () => fakes.google.calls.filter((c) => c.startsWith('GET events')).length;

  it('reads a calendar again every CALENDAR_RESYNC_MINUTES when no push notice arrives, and not before', async () => {
    const { calendar, calendarId } = await connect('google');
    await eventually(async () => fakes.google.openChannels().filter((c) => c.calendarId === calendar.id), (c) => c.length === 1);
    await fakes.google.noticesSettled();
    // The channel's first `sync` notice may still be asking for a round: let every asked round end.
    for (let reads = -1; reads !== eventReads(); ) {
      reads = eventReads();
      await new Promise((r) => setTimeout(r, 300));
    }

    fakes.google.pushLost = true;
    try {
      calendar.addEvent({ summary: 'Added without a notice', start: nowMs + 5 * HOUR, end: nowMs + 6 * HOUR, meetingUrl: MEET });
      const readsBefore = eventReads();
      nowMs += 29 * MINUTE;
      // 29 minutes after the last round nothing is due: many looks at the schedule read nothing.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(eventReads(), readsBefore, 'no round before the resync period');
      assert.deepEqual(await namesOf(calendarId), ['First']);

      nowMs += 2 * MINUTE;
      await eventually(() => namesOf(calendarId), (names) => names.length === 2);
      assert.deepEqual(await namesOf(calendarId), ['Added without a notice', 'First']);
      assert.equal(eventReads(), readsBefore + 1, 'one incremental round');
    } finally {
      fakes.google.pushLost = false;
    }
  });

  it('replaces a Google watch channel a day before it ends, and extends a Graph subscription 12 hours before it ends', async () => {
    const google = await connect('google');
    const microsoft = await connect('microsoft');
    const [channel] = await eventually(async () => fakes.google.openChannels().filter((c) => c.calendarId === google.calendar.id), (c) => c.length === 1);
    const [subscription] = await eventually(async () => fakes.graph.liveSubscriptions().filter((s) => s.calendarId === microsoft.calendar.id), (s) => s.length === 1);
    assert.equal(channel!.expiresMs, nowMs + 7 * DAY, 'a week');
    assert.equal(subscription!.expiresMs, nowMs + 2 * DAY, 'two days');
    const patchesBefore = fakes.graph.calls.filter((c) => c === 'PATCH subscription').length;

    // 37 hours on: the subscription has 11 hours left (renewed), the channel almost six days (kept).
    nowMs += 37 * HOUR;
    const [extended] = await eventually(
      async () => fakes.graph.liveSubscriptions().filter((s) => s.calendarId === microsoft.calendar.id),
      (s) => s.length === 1 && s[0]!.expiresMs > subscription!.expiresMs,
    );
    assert.equal(extended!.id, subscription!.id, 'the same subscription, extended by PATCH');
    assert.equal(extended!.expiresMs, nowMs + 2 * DAY);
    assert.equal(fakes.graph.calls.filter((c) => c === 'PATCH subscription').length, patchesBefore + 1);
    assert.deepEqual(fakes.google.openChannels().filter((c) => c.calendarId === google.calendar.id).map((c) => c.id), [channel!.id]);

    // Six days and a bit after it opened, the channel has less than a day left: a new one is opened
    // before it ends (Google channels cannot be extended), so no notice is missed in between.
    nowMs += 6 * DAY + HOUR - 37 * HOUR;
    const channels = await eventually(async () => fakes.google.openChannels().filter((c) => c.calendarId === google.calendar.id && c.expiresMs > nowMs), (c) => c.some((x) => x.id !== channel!.id));
    const fresh = channels.find((c) => c.id !== channel!.id)!;
    assert.equal(fresh.expiresMs, nowMs + 7 * DAY);

    // The new channel carries the notices: a change is seen without waiting for a periodic round.
    google.calendar.addEvent({ summary: 'After renewal', start: nowMs + 2 * HOUR, end: nowMs + 3 * HOUR, meetingUrl: MEET });
    await eventually(() => namesOf(google.calendarId), (names) => names.includes('After renewal'));
  });
});
