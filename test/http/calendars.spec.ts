import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import type { CalendarPlatform } from '../../src/domain/calendar/calendar-events';
import { eventually } from '../support/eventually';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';
import { adminClient, apiClient, createTeam, request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3_600_000;
const MEET = 'https://meet.google.com/abc-defg-hij';
const TEAMS = 'https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0';


describe('calendars: the legacy and v2 calendar API against fakes of Google Calendar and Microsoft Graph', function () {
  this.timeout(60_000);
  let fakes: CalendarFakes;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let receiver: WebhookReceiver;
  let accounts = 0;

  before(async () => {
    fakes = await startCalendarFakes();
    receiver = await new WebhookReceiver().start();
    t = await startTestService({
      overrides: { calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: true, pageSize: 50, requestOptions: fakes.requestOptions }) },
    });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(async () => {
    await t.stop();
    await receiver.stop();
    await fakes.stop();
  });

  /** A provider account with a primary calendar (a one-off and a weekly series of 4) and a second one. */
  const account = (platform: CalendarPlatform) => {
    accounts += 1;
    const fake = platform === 'google' ? fakes.google : fakes.graph;
    const email = `user${accounts}@example.com`;
    const clientId = `client-${accounts}`;
    fake.oauth.registerClient(clientId, 'client-secret');
    const who = { email, name: `User ${accounts}` };
    const calendar = fake.addCalendar(who, { name: 'Work', primary: true });
    fake.addCalendar(who, { id: platform === 'google' ? `team-${email}` : undefined, name: 'Team', primary: false });
    const now = Date.now();
    const oneOff = calendar.addEvent({ summary: 'Kick-off', start: now + 2 * HOUR, end: now + 3 * HOUR, meetingUrl: platform === 'google' ? MEET : TEAMS, attendees: [{ email: 'guest@example.com', name: 'Guest' }] });
    const series = calendar.addSeries({ summary: 'Weekly', start: now + 4 * HOUR, end: now + 5 * HOUR, meetingUrl: platform === 'google' ? MEET : TEAMS, count: 4, intervalMs: 7 * 24 * HOUR });
    const refreshToken = fake.oauth.issueRefreshToken(clientId, who);
    const body = { oauth_client_id: clientId, oauth_client_secret: 'client-secret', oauth_refresh_token: refreshToken, platform: platform === 'google' ? 'Google' : 'Microsoft' };
    return { fake, calendar, oneOff, series, body, refreshToken, email };
  };

  const eventsOf = async (calendarId: string, query = '') => {
    const listed = await api.get(`/calendar_events/?calendar_id=${calendarId}${query}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    return listed.body as { data: any[]; next: string | null };
  };

  it('POST /calendars/raw lists the account\'s calendars and stores nothing; provider refusals are 400 naming the field', async () => {
    for (const platform of ['google', 'microsoft'] as const) {
      const a = account(platform);
      const raw = await api.post('/calendars/raw', a.body);
      assert.equal(raw.status, 200, JSON.stringify(raw.body));
      assert.equal(raw.body.calendars.length, 2);
      const primary = raw.body.calendars.find((c: { is_primary: boolean }) => c.is_primary);
      assert.equal(primary.email, a.email);
      assert.deepEqual(Object.keys(primary).sort(), ['email', 'id', 'is_primary']);
      const wrongSecret = await api.post('/calendars/raw', { ...a.body, oauth_client_secret: 'nope' });
      assert.equal(wrongSecret.status, 400);
      assert.match(wrongSecret.body.message, /oauth_client_secret/);
      a.fake.oauth.revoke(a.refreshToken);
      const revoked = await api.post('/calendars/raw', a.body);
      assert.equal(revoked.status, 400);
      assert.match(revoked.body.message, /body\/oauth_refresh_token was refused/);
    }
    const list = await api.get('/calendars');
    assert.deepEqual(list.body, [], 'nothing stored');
    const badPlatform = await api.post('/calendars/raw', { oauth_client_id: 'a', oauth_client_secret: 'b', oauth_refresh_token: 'c', platform: 'Yahoo' });
    assert.equal(badPlatform.status, 400);
    assert.match(badPlatform.body.message, /body\/platform must be equal to one of the allowed values: Google, Microsoft/);
    const missing = await api.post('/calendars/raw', { platform: 'Google' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /body\/oauth_client_id is required/);
  });

  it('connects a Google calendar: first sync at once, events listed and read, push notices keep it current, webhooks to its webhook_url', async () => {
    const a = account('google');
    const noUrl = await api.post('/calendar', a.body);
    assert.equal(noUrl.status, 400, 'the team has no webhook endpoint yet');
    assert.match(noUrl.body.message, /body\/webhook_url is required/);

    const created = await api.post('/calendar', { ...a.body, webhook_url: receiver.url });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const calendar = created.body.calendar;
    assert.equal(calendar.status, 'synced');
    assert.equal(calendar.email, a.email);
    assert.ok(!JSON.stringify(created.body).includes(a.refreshToken), 'secrets are write-only');
    assert.ok(!JSON.stringify(created.body).includes('client-secret'));

    const first = await eventsOf(calendar.uuid);
    assert.equal(first.data.length, 5, 'the one-off and four instances');
    assert.equal(first.next, null);
    const kickOff = first.data.find((e) => e.name === 'Kick-off');
    assert.equal(kickOff.meeting_url, MEET);
    assert.deepEqual(kickOff.attendees.map((x: { email: string }) => x.email).includes('guest@example.com'), true);
    assert.equal(kickOff.raw.id, kickOff.provider_id, "lists carry the provider's record too (the official client expects it)");
    const detail = await api.get(`/calendar_events/${kickOff.uuid}`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.calendar_uuid, calendar.uuid);
    assert.equal(detail.body.raw.summary, 'Kick-off');
    assert.equal(detail.body.is_recurring, false);
    const weekly = first.data.filter((e) => e.name === 'Weekly');
    assert.ok(weekly.every((e) => e.is_recurring && e.recurring_event_id === a.series));

    // A change at Google: its watch channel posts a notice, the service syncs, the event shows up.
    await eventually(async () => fakes.google.openChannels().filter((c) => c.calendarId === a.calendar.id), (c) => c.length === 1);
    const now = Date.now();
    a.calendar.addEvent({ summary: 'Added later', start: now + 6 * HOUR, end: now + 7 * HOUR, meetingUrl: MEET });
    await eventually(() => eventsOf(calendar.uuid), (l) => l.data.some((e) => e.name === 'Added later'));
    a.calendar.cancelEvent(a.oneOff);
    const afterCancel = await eventually(() => eventsOf(calendar.uuid), (l) => l.data.find((e) => e.name === 'Kick-off')?.deleted === true);
    assert.ok(afterCancel.data.find((e) => e.name === 'Kick-off').deleted);

    const hooks = await receiver.waitFor((r) => r.some((h) => h.body?.event === 'calendar.event_cancelled'));
    const kinds = hooks.map((h) => h.body.event);
    assert.ok(kinds.includes('calendar.events_synced'));
    assert.ok(kinds.includes('calendar.event_created'));
    const createdHook = hooks.find((h) => h.body.event === 'calendar.event_created')!;
    assert.equal(createdHook.body.data.calendar_id, calendar.uuid);
    assert.equal(createdHook.body.data.instances[0].title, 'Added later');
    assert.ok(createdHook.headers['x-service-api-key'], 'the key that connected the calendar');
  });

  it('connects a Microsoft calendar in v2: the subscription passes the validationToken handshake and its notices carry our clientState', async () => {
    const a = account('microsoft');
    const created = await api.post('/v2/calendars', a.body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const calendar = created.body.data;
    assert.equal(calendar.status, 'synced');
    assert.equal((await eventsOf(calendar.calendar_id)).data.length, 5);
    const subscriptions = await eventually(async () => fakes.graph.liveSubscriptions().filter((s) => s.calendarId === a.calendar.id), (s) => s.length === 1);
    assert.ok(subscriptions[0]!.clientState && subscriptions[0]!.clientState.length >= 32, 'a secret client state');
    const read = await api.get(`/v2/calendars/${calendar.calendar_id}`);
    assert.equal(read.body.data.push.active, true);

    // Graph posts a notice with our clientState; the service reads the delta and the instance moves.
    const now = Date.now();
    a.calendar.moveInstance(a.series, 1, now + 30 * HOUR, now + 31 * HOUR);
    const movedTo = (e: { name: string; start_time: string }) => e.name === 'Weekly' && Math.abs(Date.parse(e.start_time) - (now + 30 * HOUR)) < 1000;
    const moved = await eventually(() => eventsOf(calendar.calendar_id), (l) => l.data.some(movedTo));
    assert.equal(moved.data.filter((e) => e.name === 'Weekly').length, 4, 'moved, not added');

    const listed = await api.get('/v2/calendars');
    assert.ok(listed.body.data.calendars.some((c: { calendar_id: string }) => c.calendar_id === calendar.calendar_id));
  });

  it('refuses push notices with a wrong Google channel token or Graph clientState', async () => {
    const a = account('google');
    const created = await api.post('/calendar', { ...a.body, webhook_url: receiver.url });
    const calendarId = created.body.calendar.uuid;
    const channelId = `${calendarId}_0123456789abcdef`;
    const google = await request(t.url, 'POST', '/calendar-push/google', {
      headers: { 'x-goog-channel-id': channelId, 'x-goog-channel-token': 'forged', 'x-goog-resource-state': 'exists' },
    });
    assert.equal(google.status, 403);
    const graph = await request(t.url, 'POST', `/calendar-push/microsoft?channel=${encodeURIComponent(channelId)}`, {
      body: { value: [{ subscriptionId: 'x', changeType: 'updated', clientState: 'forged', resource: 'Users/x/Events/y' }] },
    });
    assert.equal(graph.status, 403);
    const handshake = await request(t.url, 'POST', `/calendar-push/microsoft?channel=${encodeURIComponent(channelId)}&validationToken=${encodeURIComponent('abc 123')}`, {});
    assert.equal(handshake.status, 200);
    assert.equal(handshake.body, 'abc 123');
  });

  it('GET /calendar_events: batches of 100 with a cursor, status, date, update and address filters; bad values are 400 naming the parameter', async () => {
    const a = account('google');
    const now = Date.now();
    a.calendar.addSeries({ summary: 'Daily', start: now + HOUR, end: now + 2 * HOUR, meetingUrl: MEET, count: 230, intervalMs: 60 * 60_000, attendees: [{ email: 'Boss@Example.com' }] });
    a.calendar.addEvent({ summary: 'Over', start: now - 3 * HOUR, end: now - 2 * HOUR, meetingUrl: MEET });
    const calendarId = (await api.post('/calendar', { ...a.body, webhook_url: receiver.url })).body.calendar.uuid;

    const pages: any[][] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { data: any[]; next: string | null } = await eventsOf(calendarId, cursor ? `&cursor=${cursor}` : '');
      pages.push(page.data);
      cursor = page.next;
    }
    assert.deepEqual(pages.map((p) => p.length), [100, 100, 35], 'upcoming: 230 + 5, never the one already over');
    const all = pages.flat();
    assert.equal(new Set(all.map((e) => e.uuid)).size, all.length);
    assert.deepEqual(all.map((e) => e.start_time), [...all.map((e) => e.start_time)].sort());

    const past = await eventsOf(calendarId, '&status=past');
    assert.deepEqual(past.data.map((e) => e.name), ['Over']);
    assert.equal((await eventsOf(calendarId, '&status=all')).next !== null, true);
    const boss = await eventsOf(calendarId, '&attendee_email=boss@example.com&status=all');
    assert.equal(boss.data.length, 100);
    const window = await eventsOf(calendarId, `&start_date_gte=${new Date(now + 10 * HOUR).toISOString()}&start_date_lte=${new Date(now + 12 * HOUR).toISOString()}`);
    assert.deepEqual(window.data.map((e) => e.name), ['Daily', 'Daily', 'Daily'], 'bounds inclusive: +10 h, +11 h, +12 h');
    const later = await eventsOf(calendarId, `&updated_at_gte=${new Date(Date.now() + HOUR).toISOString()}`);
    assert.equal(later.data.length, 0);
    assert.equal((await eventsOf(calendarId, `&organizer_email=${encodeURIComponent(a.email)}&status=all`)).data.length, 100);

    const cases: Array<[string, RegExp]> = [
      ['', /querystring\/calendar_id is required/],
      [`calendar_id=${calendarId}&status=soon`, /querystring\/status must be equal to one of the allowed values: upcoming, past, all/],
      [`calendar_id=${calendarId}&start_date_gte=yesterday`, /querystring\/start_date_gte must be an ISO 8601 date-time/],
      [`calendar_id=${calendarId}&cursor=bogus`, /querystring\/cursor/],
      ['calendar_id=not-a-uuid', /querystring\/calendar_id must match format "uuid"/],
    ];
    for (const [query, message] of cases) {
      const answer = await api.get(`/calendar_events/?${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(answer.body.message, message, query);
    }
    const other = apiClient(t.url, (await createTeam(t.url)).api_key);
    assert.equal((await other.get(`/calendar_events/?calendar_id=${calendarId}`)).status, 404, 'another team\'s calendar does not exist for it');
  });

  it('an expired sync token falls back to a full read; a revoked refresh token marks the calendar and sends calendar.error', async () => {
    const a = account('google');
    const calendarId = (await api.post('/calendar', { ...a.body, webhook_url: receiver.url })).body.calendar.uuid;
    a.calendar.expireSyncTokens();
    const now = Date.now();
    a.calendar.addEvent({ summary: 'After expiry', start: now + 8 * HOUR, end: now + 9 * HOUR, meetingUrl: MEET });
    await eventually(() => eventsOf(calendarId), (l) => l.data.some((e) => e.name === 'After expiry'));
    const resync = await api.post(`/calendars/${calendarId}/resync`);
    assert.equal(resync.status, 200);
    assert.equal(resync.body.calendar.status, 'synced');

    a.fake.oauth.revoke(a.refreshToken);
    const refused = await api.post(`/calendars/${calendarId}/resync`);
    assert.equal(refused.body.calendar.status, 'error');
    assert.equal(refused.body.calendar.last_error.reason, 'credentials_revoked');
    const hooks = await receiver.waitFor((r) => r.some((h) => h.body?.event === 'calendar.error' && h.body.data.calendar_id === calendarId));
    assert.equal(hooks.find((h) => h.body?.event === 'calendar.error' && h.body.data.calendar_id === calendarId)!.body.data.error, 'credentials_revoked');
  });

  it('deletes a calendar: its events and itself are gone for the team, its push channel is stopped', async () => {
    const a = account('google');
    const calendarId = (await api.post('/calendar', { ...a.body, webhook_url: receiver.url })).body.calendar.uuid;
    await eventually(async () => fakes.google.openChannels().filter((c) => c.calendarId === a.calendar.id), (c) => c.length === 1);
    const eventId = (await eventsOf(calendarId)).data[0].uuid;
    assert.equal((await api.delete(`/calendars/${calendarId}`)).status, 200);
    assert.equal((await api.get(`/calendars/${calendarId}`)).status, 404);
    assert.equal((await api.get(`/calendar_events/${eventId}`)).status, 404);
    assert.equal((await api.get(`/calendar_events/?calendar_id=${calendarId}`)).status, 404);
    assert.equal((await api.delete(`/calendars/${calendarId}`)).status, 404);
    await eventually(async () => fakes.google.openChannels().filter((c) => c.calendarId === a.calendar.id), (c) => c.length === 0);
  });

  it('POST, PATCH, DELETE /calendar_events/{uuid}/bot with all_occurrences answer the events changed; secrets are write-only', async () => {
    const a = account('google');
    const calendarId = (await api.post('/calendar', { ...a.body, webhook_url: receiver.url })).body.calendar.uuid;
    const weekly = (await eventsOf(calendarId)).data.filter((e) => e.name === 'Weekly');
    const [first, second, third] = weekly;

    const refused = await api.post(`/calendar_events/${first.uuid}/bot`, { recording_mode: 'audio_only' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'body/bot_name is required');
    const badMode = await api.post(`/calendar_events/${first.uuid}/bot`, { bot_name: 'N', recording_mode: 'loud' });
    assert.equal(badMode.status, 400);
    assert.match(badMode.body.message, /body\/recording_mode must be equal to one of the allowed values/);
    const badFlag = await api.post(`/calendar_events/${first.uuid}/bot?all_occurrences=yes`, { bot_name: 'N' });
    assert.match(badFlag.body.message, /querystring\/all_occurrences must be boolean/);

    const transcribed = await api.post(`/calendar_events/${first.uuid}/bot`, { bot_name: 'N', speech_to_text: { provider: 'Default', api_key: 'stt-secret-123' } });
    assert.equal(transcribed.status, 200, JSON.stringify(transcribed.body));
    assert.equal(transcribed.body[0].bot_param.speech_to_text_provider, 'Default');
    assert.equal(transcribed.body[0].bot_param.speech_to_text_api_key, '********', 'a secret is shown only as set');
    assert.ok(!JSON.stringify(transcribed.body).includes('stt-secret-123'));
    const zakElsewhere = await api.post(`/calendar_events/${first.uuid}/bot`, { bot_name: 'N', vc_access_token_url: 'https://tokens.example.com/zak' });
    assert.equal(zakElsewhere.status, 400);
    assert.equal(zakElsewhere.body.message, 'body/vc_access_token_url is only allowed for vc meetings (meeting_url is a mt meeting)');

    const attached = await api.post(`/calendar_events/${first.uuid}/bot?all_occurrences=true`, {
      bot_name: 'Notetaker', recording_mode: 'audio_only', webhook_url: receiver.url, deduplication_key: 'weekly', extra: { team: 'sales' },
    });
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    assert.equal(attached.body.length, 4, 'every instance of the series');
    for (const e of attached.body) {
      assert.deepEqual(e.bot_param, {
        bot_name: 'Notetaker', recording_mode: 'audio_only', webhook_url: receiver.url, deduplication_key: 'weekly', extra: { team: 'sales' },
        transcription_custom_parameters: {},
      });
    }
    const detail = await api.get(`/calendar_events/${third.uuid}`);
    assert.equal(detail.body.bot_param.deduplication_key, 'weekly');

    const patched = await api.patch(`/calendar_events/${second.uuid}/bot`, { bot_name: 'Second only' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.map((e: { uuid: string }) => e.uuid), [second.uuid]);
    assert.equal(patched.body[0].bot_param.bot_name, 'Second only');
    assert.equal(patched.body[0].bot_param.recording_mode, 'audio_only', 'the fields not given stay');
    assert.equal((await api.get(`/calendar_events/${first.uuid}`)).body.bot_param.bot_name, 'Notetaker');

    const removed = await api.delete(`/calendar_events/${first.uuid}/bot`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body[0].bot_param, null);
    assert.equal((await api.delete(`/calendar_events/${first.uuid}/bot`)).status, 200, 'idempotent');
    const listed = (await eventsOf(calendarId)).data.filter((e) => e.name === 'Weekly');
    assert.deepEqual(listed.map((e) => e.bot_param?.bot_name ?? null), [null, 'Second only', 'Notetaker', 'Notetaker']);

    const all = await api.delete(`/calendar_events/${third.uuid}/bot?all_occurrences=true`);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.map((e: { bot_param: unknown }) => e.bot_param), [null, null, null, null]);
    const noBot = await api.patch(`/calendar_events/${first.uuid}/bot`, { bot_name: 'x' });
    assert.equal(noBot.status, 404);

    // v2: the same through POST /v2/calendars/{id}/bots with v2 fields.
    const v2 = await api.post(`/v2/calendars/${calendarId}/bots`, { event_id: first.uuid, all_occurrences: true, bot_name: 'V2 bot', callback_enabled: true, callback_config: { url: receiver.url, secret: 'v2-secret' } });
    assert.equal(v2.status, 201, JSON.stringify(v2.body));
    assert.equal(v2.body.data.length, 4);
    assert.deepEqual(v2.body.errors, []);
    assert.ok(v2.body.data.every((e: { bot_scheduled: boolean }) => e.bot_scheduled));
    assert.ok(!JSON.stringify(v2.body).includes('v2-secret'), 'secrets are write-only');
    assert.equal(v2.body.data[0].bot_config.callback_config.secret, '********');
    const v2Bad = await api.post(`/v2/calendars/${calendarId}/bots`, { event_id: first.uuid, bot_name: 'x', meeting_url: MEET });
    assert.equal(v2Bad.status, 400);
    assert.match(v2Bad.body.message, /body\/meeting_url/);
    const v2Unknown = await api.post(`/v2/calendars/${calendarId}/bots`, { event_id: '00000000-0000-4000-8000-000000000000', bot_name: 'x' });
    assert.equal(v2Unknown.status, 400);
    assert.match(v2Unknown.body.message, /body\/event_id is not an event of this calendar/);
  });

  it('keeps the client secret, the refresh token and the key sealed at rest: none of them is in the log file', async () => {
    const a = account('google');
    const secret = `client-secret-${Date.now()}`;
    a.fake.oauth.registerClient(a.body.oauth_client_id, secret);
    const created = await api.post('/calendar', { ...a.body, oauth_client_secret: secret, webhook_url: receiver.url });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const stored = readdirSync(t.dataDir)
      .filter((f) => f.startsWith('events.sqlite3'))
      .map((f) => readFileSync(path.join(t.dataDir, f)).toString('latin1'))
      .join('');
    assert.ok(stored.includes(a.email), 'the log was read');
    assert.ok(!stored.includes(secret) && !stored.includes(a.refreshToken), 'no plain secret at rest');
    assert.ok(!t.logText().includes(secret) && !t.logText().includes(a.refreshToken), 'nor in the logs');
  });

  it('is reached only with Full Access', async () => {
    const sending = await createTeam(t.url);
    const key = await adminClient(t.url).post(`/admin/teams/${sending.team_id}/api-keys`, { permission: 'sending' });
    assert.equal(key.status, 201);
    const client = apiClient(t.url, key.body.data.api_key);
    assert.equal((await client.get('/calendars')).status, 403);
    assert.equal((await client.post('/calendars/raw', {})).status, 403);
  });
});

