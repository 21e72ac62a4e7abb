import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';
import { eventually } from '../support/eventually';
import { apiClient, createTeam } from '../support/http-client';
import { freshPostgresDatabase } from '../support/postgres';
import { readLog } from '../support/read-log';
import { startTestService, type TestService } from '../support/test-service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CALENDAR_BOTS_CHECKPOINT = 'subscriber:schedule-calendar-bots';

/**
 * Calendars when several api instances share one PostgreSQL (issue 19): the sync and the calendar bots run
 * in the instance holding their leases, the API answers through any instance, and whoever takes the work
 * over repeats nothing its predecessor did.
 */
describe('calendars on many instances (one PostgreSQL, in this process)', function () {
  this.timeout(90_000);
  let databaseUrl: string;
  let fakes: CalendarFakes;
  const secret = randomBytes(32).toString('hex');
  const started: TestService[] = [];
  const instance = async (instanceId: string): Promise<TestService> => {
    const t = await startTestService({
      databaseUrl,
      serviceSecret: secret,
      instanceId,
      overrides: { calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: true, requestOptions: fakes.requestOptions }) },
    });
    started.push(t);
    return t;
  };
  let holder: TestService;
  let standby: TestService;
  let apiKey: string;
  let api: ReturnType<typeof apiClient>;
  let calendarId: string;

  before(async () => {
    databaseUrl = await freshPostgresDatabase('calendars_many');
    fakes = await startCalendarFakes();
    holder = await instance('api-a');
    standby = await instance('api-b');
    apiKey = (await createTeam(standby.url)).api_key;
    api = apiClient(standby.url, apiKey);
  });
  after(async () => {
    for (const t of started.reverse()) await t.stop().catch(() => undefined);
    await fakes?.stop();
  });

  const events = async () => (await api.get(`/calendar_events/?calendar_id=${calendarId}&status=all`)).body.data as { uuid: string; name: string }[];
  const calendarBots = async () => ((await api.get('/v2/bots/scheduled?limit=100')).body.data.bots as { bot_name: string }[]).filter((b) => b.bot_name === 'Standup bot');

  it('a calendar connected through the instance that does not sync it is answered once its first round ended: its events are listed at once', async () => {
    assert.ok(holder.service.parts.heldLeases().includes('calendar-sync'));
    assert.ok(!standby.service.parts.heldLeases().includes('calendar-sync'));
    fakes.google.oauth.registerClient('client-1', 'client-secret');
    const who = { email: 'standup@example.com', name: 'Standup' };
    const calendar = fakes.google.addCalendar(who, { name: 'Work', primary: true });
    calendar.addSeries({ summary: 'Standup', start: Date.now() + 2 * HOUR, end: Date.now() + 2 * HOUR + HOUR / 4, meetingUrl: 'https://meet.google.com/abc-defg-hij', count: 3, intervalMs: DAY });
    const connected = await api.post('/calendar', {
      oauth_client_id: 'client-1', oauth_client_secret: 'client-secret', oauth_refresh_token: fakes.google.oauth.issueRefreshToken('client-1', who), platform: 'Google', webhook_url: 'https://example.com/hooks',
    });
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.equal(connected.body.calendar.status, 'synced', 'the answer waited for the round the other instance ran');
    calendarId = connected.body.calendar.uuid as string;
    assert.deepEqual((await events()).map((e) => e.name), ['Standup', 'Standup', 'Standup']);

    // A resync asked through it too: 200 once the holder's round answered it (202 would say it goes on).
    const resynced = await api.post(`/calendars/${calendarId}/resync`);
    assert.equal(resynced.status, 200, JSON.stringify(resynced.body));
    assert.equal(resynced.body.calendar.status, 'synced');
  });

  it('the bots attached through it are scheduled by the holder; a successor that replays all the holder did (it died before saving its checkpoint) schedules none again', async () => {
    const [standup] = await events();
    assert.equal((await api.post(`/calendar_events/${standup!.uuid}/bot?all_occurrences=true`, { bot_name: 'Standup bot' })).status, 200);
    await eventually(calendarBots, (bots) => bots.length === 3);
    const before = await readLog(databaseUrl);

    // Both stop; the calendar bots' checkpoint goes back to the start, as if its holder had died right
    // after acting; a new instance takes every lease over and replays the whole log.
    for (const t of [standby, holder]) await t.stop();
    await setCheckpoint(databaseUrl, CALENDAR_BOTS_CHECKPOINT, 0n);
    const successor = await instance('api-c');
    assert.ok(successor.service.parts.heldLeases().includes('calendar-bots'));
    api = apiClient(successor.url, apiKey);
    const head = before.at(-1)!.position;
    await eventually(() => checkpointOf(databaseUrl, CALENDAR_BOTS_CHECKPOINT), (position) => position !== null && position >= head);

    const added = (await readLog(databaseUrl)).slice(before.length);
    assert.deepEqual(added.map((e) => e.type), [], 'the replay recorded nothing: no bot scheduled, changed or cancelled again');
    assert.equal((await calendarBots()).length, 3);
  });
});

const withClient = async <T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
};

const setCheckpoint = (databaseUrl: string, name: string, position: bigint) =>
  withClient(databaseUrl, async (client) => void (await client.query('UPDATE checkpoints SET position = $2 WHERE name = $1', [name, position.toString()])));

const checkpointOf = (databaseUrl: string, name: string) =>
  withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [name]);
    return rows[0] ? BigInt(rows[0].position) : null;
  });
