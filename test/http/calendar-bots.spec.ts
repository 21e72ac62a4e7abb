import assert from 'node:assert/strict';
import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { eventually } from '../support/eventually';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';
import { apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MEET = 'https://meet.google.com/abc-defg-hij';


describe('calendar bots: scheduled bots that follow their events', function () {
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
      overrides: { calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: true, requestOptions: fakes.requestOptions }) },
    });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(async () => {
    await t.stop();
    await receiver.stop();
    await fakes.stop();
  });

  const connect = async (platform: 'google' | 'microsoft', seriesStartMs: number, meetingUrl = MEET) => {
    accounts += 1;
    const fake = platform === 'google' ? fakes.google : fakes.graph;
    const clientId = `bots-client-${accounts}`;
    fake.oauth.registerClient(clientId, 'client-secret');
    const who = { email: `bots${accounts}@example.com`, name: `Bots ${accounts}` };
    const calendar = fake.addCalendar(who, { name: 'Work', primary: true });
    const series = calendar.addSeries({ summary: 'Standup', start: seriesStartMs, end: seriesStartMs + HOUR / 4, meetingUrl, count: 3, intervalMs: DAY });
    const body = { oauth_client_id: clientId, oauth_client_secret: 'client-secret', oauth_refresh_token: fake.oauth.issueRefreshToken(clientId, who), platform: platform === 'google' ? 'Google' : 'Microsoft' };
    const created = await api.post('/calendar', { ...body, webhook_url: receiver.url });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return { calendar, series, calendarId: created.body.calendar.uuid as string };
  };

  const events = async (calendarId: string) => (await api.get(`/calendar_events/?calendar_id=${calendarId}&status=all`)).body.data as any[];
  const scheduledBots = async () => (await api.get('/v2/bots/scheduled?limit=100')).body.data.bots as any[];
  const bot = async (botId: string) => (await api.get(`/v2/bots/${botId}`)).body.data;

  it('a series with all_occurrences: one bot per instance at its start; moved, cancelled and new instances are followed; DELETE cancels', async () => {
    const start = Date.now() + 2 * HOUR;
    const { calendar, series, calendarId } = await connect('google', start);
    const standups = (await events(calendarId)).filter((e) => e.name === 'Standup');
    assert.equal(standups.length, 3);
    const attached = await api.post(`/calendar_events/${standups[0].uuid}/bot?all_occurrences=true`, { bot_name: 'Calendar bot', recording_mode: 'audio_only' });
    assert.equal(attached.status, 200, JSON.stringify(attached.body));

    const botsOf = async () => {
      const list = await scheduledBots();
      return list.filter((b) => b.bot_name === 'Calendar bot');
    };
    const first = await eventually(botsOf, (b) => b.length === 3);
    assert.deepEqual(first.map((b) => b.join_at).sort(), standups.map((e) => e.start_time).sort(), 'each bot joins at its instance\'s start');
    assert.ok(first.every((b) => b.meeting_url === MEET && b.status === 'scheduled'));

    // Moved at the provider: the bot of that instance moves with it.
    const movedTo = start + DAY + 3 * HOUR;
    calendar.moveInstance(series, 1, movedTo, movedTo + HOUR / 4);
    const afterMove = await eventually(botsOf, (b) => b.some((x) => Math.abs(Date.parse(x.join_at) - movedTo) < 1000));
    assert.equal(afterMove.length, 3, 'moved, not a second bot');

    // Cancelled at the provider: its bot is cancelled before recording.
    calendar.cancelInstance(series, 2);
    const cancelledEvent = await eventually(() => events(calendarId), (l) => l.some((e) => e.name === 'Standup' && e.deleted));
    const gone = cancelledEvent.find((e) => e.name === 'Standup' && e.deleted);
    const afterCancel = await eventually(botsOf, (b) => b.length === 2);
    assert.ok(!afterCancel.some((b) => b.join_at === gone.start_time));
    const cancelledBots = (await api.get('/v2/bots?limit=50')).body.data.bots.filter((b: any) => b.bot_name === 'Calendar bot' && b.status === 'cancelled');
    assert.equal(cancelledBots.length, 1);
    assert.equal((await bot(cancelledBots[0].bot_id)).error_code, 'EXITING_MEETING_BEFORE_RECORD');

    // A new instance of the series gets its bot (all_occurrences covers future instances).
    calendar.extendSeries(series, 1);
    await eventually(botsOf, (b) => b.length === 3);

    // The bot of one instance removed through the API: that bot is cancelled, the others stay.
    const listed = (await events(calendarId)).filter((e) => e.name === 'Standup' && !e.deleted);
    const removed = await api.delete(`/calendar_events/${listed[0].uuid}/bot`);
    assert.equal(removed.status, 200);
    const left = await eventually(botsOf, (b) => b.length === 2);
    assert.ok(!left.some((b) => b.join_at === listed[0].start_time));

    // PATCH changes the bots that follow: the name of every remaining one.
    const patched = await api.patch(`/calendar_events/${listed[1].uuid}/bot?all_occurrences=true`, { bot_name: 'Renamed bot' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const renamed = await eventually(async () => (await scheduledBots()).filter((b) => b.bot_name === 'Renamed bot'), (b) => b.length === 3);
    assert.equal(renamed.length, 3, 'all_occurrences: the excluded instance is included again with the series');

    // The whole series removed: no bot left.
    await api.delete(`/calendar_events/${listed[1].uuid}/bot?all_occurrences=true`);
    await eventually(async () => (await scheduledBots()).filter((b) => b.bot_name === 'Renamed bot'), (b) => b.length === 0);
  });

  it('the legacy bot_param streaming fields become the bot\'s streaming config, as a v2 bot with streaming_config has it', async () => {
    const { calendarId } = await connect('google', Date.now() + 3 * HOUR);
    const [standup] = (await events(calendarId)).filter((e) => e.name === 'Standup');
    const attach = (body: Record<string, unknown>) => api.post(`/calendar_events/${standup.uuid}/bot`, { bot_name: 'Streaming bot', ...body });

    const lonelyFrequency = await attach({ streaming_audio_frequency: '24khz' });
    assert.equal(lonelyFrequency.status, 400);
    assert.equal(lonelyFrequency.body.message, 'body/streaming_audio_frequency needs streaming_input or streaming_output');
    const badFrequency = await attach({ streaming_output: 'wss://stream.example.com/out', streaming_audio_frequency: '22khz' });
    assert.equal(badFrequency.status, 400);
    assert.match(badFrequency.body.message, /^body\/streaming_audio_frequency must be one of 16khz/);
    const customWithoutProvider = await attach({ transcription_custom_parameters: { model: 'x' } });
    assert.equal(customWithoutProvider.status, 400);
    assert.equal(customWithoutProvider.body.message, 'body/transcription_custom_parameters needs speech_to_text_provider');

    const attached = await attach({ streaming_input: 'wss://stream.example.com/in', streaming_output: 'wss://stream.example.com/out', streaming_audio_frequency: '24khz' });
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    const [scheduled] = await eventually(async () => (await scheduledBots()).filter((b) => b.bot_name === 'Streaming bot'), (b) => b.length === 1);
    const botEvents = (await api.get(`/v2/bots/${scheduled.bot_id}/events`)).body.data.events as any[];
    const config = botEvents.find((e) => e.type === 'BotScheduled').data.config;
    assert.equal(config.api, 'legacy');
    assert.deepEqual(config.streaming, { input_url: 'wss://stream.example.com/in', output_url: 'wss://stream.example.com/out', audio_frequency: 24000 });
  });

  it('a bot attached to an event already under way joins at once; an event that has ended gets none', async () => {
    const now = Date.now();
    accounts += 1;
    const clientId = `bots-client-${accounts}`;
    fakes.google.oauth.registerClient(clientId, 'client-secret');
    const who = { email: `bots${accounts}@example.com`, name: `Bots ${accounts}` };
    const calendar = fakes.google.addCalendar(who, { name: 'Work', primary: true });
    calendar.addEvent({ summary: 'Running', start: now - 10 * 60_000, end: now + 50 * 60_000, meetingUrl: MEET });
    calendar.addEvent({ summary: 'Over', start: now - 2 * HOUR, end: now - HOUR, meetingUrl: MEET });
    const body = { oauth_client_id: clientId, oauth_client_secret: 'client-secret', oauth_refresh_token: fakes.google.oauth.issueRefreshToken(clientId, who), platform: 'Google' };
    const calendarId = (await api.post('/calendar', { ...body, webhook_url: receiver.url })).body.calendar.uuid as string;
    const all = await events(calendarId);
    const running = all.find((e) => e.name === 'Running');
    const over = all.find((e) => e.name === 'Over');

    const asked = Date.now();
    assert.equal((await api.post(`/calendar_events/${running.uuid}/bot`, { bot_name: 'Joins at once' })).status, 200);
    assert.equal((await api.post(`/calendar_events/${over.uuid}/bot`, { bot_name: 'Too late' })).status, 200);
    const allBots = async () => (await api.get('/v2/bots?limit=100')).body.data.bots as any[];
    const [joining] = await eventually(async () => (await allBots()).filter((b) => b.bot_name === 'Joins at once'), (b) => b.length === 1);
    const detail = await eventually(() => bot(joining.bot_id), (b) => b.status !== 'scheduled');
    assert.ok(Date.parse(detail.join_at) > asked && Date.parse(detail.join_at) <= Date.now() + 1_000, `join_at ${detail.join_at} is "at once", not the event's start`);
    assert.notEqual(detail.status, 'failed', JSON.stringify(detail));
    assert.equal((await allBots()).filter((b) => b.bot_name === 'Too late').length, 0, 'an event that has ended gets no bot');
  });

  it('one meeting in two calendars with the same deduplication_key gets one bot; removing the calendar stops its bots', async () => {
    const start = Date.now() + 5 * HOUR;
    const url = 'https://meet.google.com/ddd-eeee-fff';
    const google = await connect('google', start, url);
    const microsoft = await connect('microsoft', start, url);
    for (const c of [google, microsoft]) {
      const first = (await events(c.calendarId)).find((e) => e.name === 'Standup');
      const answer = await api.post(`/calendar_events/${first.uuid}/bot`, { bot_name: 'Shared bot', deduplication_key: 'standup-room' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    const shared = await eventually(async () => (await scheduledBots()).filter((b) => b.bot_name === 'Shared bot'), (b) => b.length >= 1);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await scheduledBots()).filter((b) => b.bot_name === 'Shared bot').length, 1, 'one bot for both events');
    const googleFirst = (await events(google.calendarId)).find((e) => e.name === 'Standup');
    const microsoftFirst = (await events(microsoft.calendarId)).find((e) => e.name === 'Standup');
    assert.equal(googleFirst.bot_param.deduplication_key, 'standup-room');
    assert.ok(shared[0].bot_id);

    // One calendar goes: the other still wants the bot, so it stays; the second goes too: it is cancelled.
    assert.equal((await api.delete(`/calendars/${google.calendarId}`)).status, 200);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await scheduledBots()).filter((b) => b.bot_name === 'Shared bot').length, 1);
    assert.equal((await api.delete(`/calendar_events/${microsoftFirst.uuid}/bot`)).status, 200);
    await eventually(async () => (await scheduledBots()).filter((b) => b.bot_name === 'Shared bot'), (b) => b.length === 0);
  });
});
