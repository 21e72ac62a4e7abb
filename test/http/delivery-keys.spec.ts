import assert from 'node:assert/strict';
import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import { asBot } from '../support/as-bot';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';
import { readUntil } from '../support/read-until';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

const HOUR = 3_600_000;

/**
 * `x-service-api-key` on a delivery is the key that defined what is sent and where. The attack this
 * guards against: a Sending Access key redefines a calendar bot that a Full Access key attached, callback
 * included, and would receive the Full Access key on its own URL when the bot ends.
 */
describe('deliveries carry the key that defined the bot as it now is', function () {
  this.timeout(60_000);
  /** the service's (and the calendar fakes') clock: real time, moved ahead to reach a scheduled bot's time */
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  let fakes: CalendarFakes;
  let t: TestService;
  let launcher: ScriptedLauncher;
  const receivers: WebhookReceiver[] = [];
  let accounts = 0;

  before(async () => {
    fakes = await startCalendarFakes(now);
    launcher = new ScriptedLauncher();
    t = await startTestService({
      botSlots: 20,
      clock: () => new Date(now()),
      overrides: {
        launcher,
        webhookDelivery: { pollMs: 20, timeoutMs: 1500 },
        calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: true, requestOptions: fakes.requestOptions }),
      },
    });
  });
  after(async () => {
    await t.stop();
    await Promise.all(receivers.map((r) => r.stop()));
    await fakes.stop();
  });

  const receiver = async () => {
    const r = await new WebhookReceiver().start();
    receivers.push(r);
    return r;
  };
  const issueKey = async (teamId: string, permission: 'full' | 'sending') => {
    const issued = await adminClient(t.url).post(`/admin/teams/${teamId}/api-keys`, { permission });
    assert.equal(issued.status, 201, JSON.stringify(issued.body));
    return issued.body.data.api_key as string;
  };
  const newTeam = async () => {
    const team = await createTeam(t.url, { tokens: 50 });
    return { teamId: team.team_id, fullKey: team.api_key, full: apiClient(t.url, team.api_key) };
  };
  const final = (r: readonly ReceivedWebhook[]) => r.some((x) => x.body.event === 'bot.completed' || x.body.event === 'bot.failed' || x.body.event === 'complete');
  /** No request any receiver of this test got carried the key. */
  const keySentNowhere = (key: string) => {
    const carrying = receivers.flatMap((r) => r.received).filter((x) => Object.values(x.headers).some((v) => v.includes(key)));
    assert.deepEqual(carrying.map((x) => `${x.path} ${x.body?.event}`), [], 'the Full Access key reached a receiver');
  };

  /** The stand-in bot process joins, records and ends completed. */
  const runToTheEnd = async (botId: string) => {
    const bot = asBot(await launcher.waitForLaunch(botId, 20_000));
    for (const status of ['joining_call', 'in_call_recording']) assert.equal((await bot.status(status)).status, 204);
    const at = new Date(now()).toISOString();
    assert.equal((await bot.report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: 'done', recorded_seconds: 30, waiting_room_seconds: 0, at })).status, 204);
  };

  /** Moves the clock to the time a scheduled bot joining at `joinAt` is queued. */
  const reach = (joinAt: string) => {
    offsetMs = Math.max(offsetMs, Date.parse(joinAt) - SCHEDULED_BOT_LEAD_MS + 1_000 - Date.now());
  };

  const connectCalendarWithMeeting = async (full: ReturnType<typeof apiClient>, startMs: number) => {
    accounts += 1;
    const clientId = `keys-client-${accounts}`;
    fakes.google.oauth.registerClient(clientId, 'client-secret');
    const who = { email: `keys${accounts}@example.com`, name: `Keys ${accounts}` };
    const calendar = fakes.google.addCalendar(who, { name: 'Work', primary: true });
    calendar.addEvent({ summary: 'Board meeting', start: startMs, end: startMs + HOUR, meetingUrl: MEETING });
    const created = await full.post('/v2/calendars', {
      oauth_client_id: clientId, oauth_client_secret: 'client-secret', oauth_refresh_token: fakes.google.oauth.issueRefreshToken(clientId, who), platform: 'Google',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const calendarId = created.body.data.calendar_id as string;
    const events = (await full.get(`/calendar_events/?calendar_id=${calendarId}&status=all`)).body.data as { uuid: string; name: string }[];
    const event = events.find((e) => e.name === 'Board meeting');
    assert.ok(event, JSON.stringify(events));
    return { calendarId, eventId: event.uuid };
  };

  const scheduledBotNamed = (full: ReturnType<typeof apiClient>, name: string) =>
    readUntil(async () => ((await full.get('/v2/bots/scheduled?limit=100')).body.data.bots as any[]).find((b) => b.bot_name === name), (b) => b !== undefined);

  it('a Sending Access key that redefines a calendar bot of a Full Access key gets its own key on its callback, never the Full one', async () => {
    const { teamId, fullKey, full } = await newTeam();
    const sendingKey = await issueKey(teamId, 'sending');
    const sending = apiClient(t.url, sendingKey);
    const owners = await receiver();
    const attacker = await receiver();
    const { calendarId, eventId } = await connectCalendarWithMeeting(full, now() + 2 * HOUR);

    const attached = await full.post(`/v2/calendars/${calendarId}/bots`, { event_id: eventId, bot_name: 'Owner bot', callback_enabled: true, callback_config: { url: owners.url } });
    assert.equal(attached.status, 201, JSON.stringify(attached.body));
    const ownersBot = await scheduledBotNamed(full, 'Owner bot');

    // The attack: the Sending Access key may POST here (the spec lets it), and replaces the parameters whole.
    const replaced = await sending.post(`/v2/calendars/${calendarId}/bots`, { event_id: eventId, bot_name: 'Replaced bot', callback_enabled: true, callback_config: { url: attacker.url } });
    assert.equal(replaced.status, 201, JSON.stringify(replaced.body));
    const replacedBot = await scheduledBotNamed(full, 'Replaced bot');
    assert.equal(replacedBot.bot_id, ownersBot.bot_id, 'the same scheduled bot, changed');

    reach(replacedBot.join_at);
    await runToTheEnd(replacedBot.bot_id);
    const [callback] = await attacker.waitFor(final);
    assert.equal(callback!.body.data.bot_id, replacedBot.bot_id);
    assert.equal(callback!.headers['x-service-api-key'], sendingKey, 'the key that defined the bot as it now is');
    assert.equal(owners.received.length, 0);
    keySentNowhere(fullKey);
  });

  it('PATCH /v2/bots/scheduled by another key: the bot acts for that key from then on', async () => {
    const { teamId, fullKey, full } = await newTeam();
    const otherKey = await issueKey(teamId, 'full');
    const other = apiClient(t.url, otherKey);
    const first = await receiver();
    const second = await receiver();
    const joinAt = new Date(now() + HOUR).toISOString();
    const scheduled = await full.post('/v2/bots/scheduled', { meeting_url: MEETING, bot_name: 'Later', join_at: joinAt, callback_enabled: true, callback_config: { url: first.url } });
    assert.equal(scheduled.status, 201, JSON.stringify(scheduled.body));
    const botId = scheduled.body.data.bot_id as string;
    const patched = await other.patch(`/v2/bots/scheduled/${botId}`, { callback_config: { url: second.url } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));

    reach(joinAt);
    await runToTheEnd(botId);
    const [callback] = await second.waitFor(final);
    assert.equal(callback!.headers['x-service-api-key'], otherKey);
    assert.equal(first.received.length, 0);
    keySentNowhere(fullKey);
  });

  it('the legacy calendar routes: a bot_param changed (PATCH) by another key sends its legacy webhooks with that key', async () => {
    const { teamId, fullKey, full } = await newTeam();
    const otherKey = await issueKey(teamId, 'full');
    const other = apiClient(t.url, otherKey);
    const first = await receiver();
    const second = await receiver();
    const { eventId } = await connectCalendarWithMeeting(full, now() + 3 * HOUR);
    const attached = await full.post(`/calendar_events/${eventId}/bot`, { bot_name: 'Legacy calendar bot', webhook_url: first.url });
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    await scheduledBotNamed(full, 'Legacy calendar bot');
    const patched = await other.patch(`/calendar_events/${eventId}/bot`, { bot_name: 'Legacy renamed', webhook_url: second.url });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const bot = await scheduledBotNamed(full, 'Legacy renamed');

    reach(bot.join_at);
    await runToTheEnd(bot.bot_id);
    const received = await second.waitFor(final);
    assert.ok(received.every((r) => r.headers['x-service-api-key'] === otherKey), JSON.stringify(received.map((r) => r.headers['x-service-api-key'])));
    assert.equal(first.received.length, 0);
    keySentNowhere(fullKey);
  });

  it('retry-callback to another URL carries the key that asked, and the bot’s own callback secret stays with the bot’s own URL', async () => {
    const { teamId, fullKey, full } = await newTeam();
    const otherKey = await issueKey(teamId, 'full');
    const other = apiClient(t.url, otherKey);
    const own = await receiver();
    const elsewhere = await receiver();
    const created = await full.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Now', callback_enabled: true, callback_config: { url: own.url, secret: 'bot-secret' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId = created.body.data.bot_id as string;
    await runToTheEnd(botId);
    const [first] = await own.waitFor(final);
    assert.equal(first!.headers['x-service-api-key'], fullKey, 'the bot’s own callback: the key that created it');

    const retried = await other.post(`/v2/bots/${botId}/retry-callback`, { url: elsewhere.url });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    const [moved] = await elsewhere.waitFor(final);
    assert.equal(moved!.headers['x-service-api-key'], otherKey);
    assert.equal(moved!.headers['x-callback-secret'], undefined, 'the bot’s secret is not sent to a URL it was not given for');
    assert.equal(moved!.headers['webhook-signature'], undefined);
    assert.ok(!elsewhere.received.some((r) => Object.values(r.headers).some((v) => v.includes(fullKey) || v.includes('bot-secret'))));
  });
});
