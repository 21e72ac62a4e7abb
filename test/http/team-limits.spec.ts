import assert from 'node:assert/strict';
import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { startCalendarFakes, type CalendarFakes } from '../support/calendar-fakes';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const HOUR = 3_600_000;

/** What one team may hold at once is limited by its plan; the refusal names the limit. */
describe('per-team limits: scheduled bots, webhook endpoints, calendars', function () {
  this.timeout(60_000);
  let fakes: CalendarFakes;
  let t: TestService;
  let accounts = 0;

  before(async () => {
    fakes = await startCalendarFakes();
    t = await startTestService({ overrides: { calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: true, requestOptions: fakes.requestOptions }) } });
  });
  after(async () => {
    await t.stop();
    await fakes.stop();
  });

  const admin = () => adminClient(t.url);
  const newTeam = async (limits?: Record<string, number>) => {
    const team = await createTeam(t.url);
    if (limits) assert.equal((await admin().put(`/admin/teams/${team.team_id}/limits`, limits)).status, 200);
    return { ...team, api: apiClient(t.url, team.api_key) };
  };
  const refusedFor = (response: { status: number; body: any }, name: string, limit: number) => {
    assert.equal(response.status, 409, JSON.stringify(response.body));
    assert.equal(response.body.success, false);
    assert.equal(response.body.code, 'FST_ERR_TEAM_LIMIT_REACHED');
    assert.match(response.body.message, new RegExp(`limit of ${limit} .*\\(${name}\\)$`));
  };

  it('the operator reads and sets a team’s limits; defaults 5 000 scheduled bots, 20 endpoints, 500 calendars; bad values are 400 naming the field', async () => {
    const team = await createTeam(t.url);
    assert.deepEqual((await admin().get(`/admin/teams/${team.team_id}`)).body.data.limits, { scheduled_bots: 5_000, webhook_endpoints: 20, calendars: 500 });
    const set = await admin().put(`/admin/teams/${team.team_id}/limits`, { webhook_endpoints: 3, calendars: 0 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.data.limits, { scheduled_bots: 5_000, webhook_endpoints: 3, calendars: 0 });
    for (const [body, message] of [
      [{ webhook_endpoints: -1 }, 'body/webhook_endpoints must be an integer from 0 to 1000000'],
      [{ calendars: 1.5 }, 'body/calendars must be an integer from 0 to 1000000'],
      [{ bots: 1 }, 'body/bots is not a known field'],
      [{}, 'body must give at least one of scheduled_bots, webhook_endpoints, calendars'],
    ] as const) {
      const refused = await admin().put(`/admin/teams/${team.team_id}/limits`, body);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.message, message);
    }
    assert.equal((await admin().put('/admin/teams/6f9619ff-8b86-4011-b42d-00c04fc964ff/limits', { calendars: 1 })).status, 404);
  });

  it('webhook endpoints: the one past the limit is refused (409 naming it), also among concurrent requests; a deleted one frees its place; other teams are not concerned', async () => {
    const { api } = await newTeam({ webhook_endpoints: 2 });
    const attempts = await Promise.all([1, 2, 3, 4, 5].map((i) => api.post('/v2/webhooks', { url: `https://hooks.example.com/${i}` })));
    assert.deepEqual(attempts.map((a) => a.status).sort(), [201, 201, 409, 409, 409]);
    refusedFor(attempts.find((a) => a.status === 409)!, 'webhook_endpoints', 2);
    const [first] = (await api.get('/v2/webhooks')).body.data.webhooks as { webhook_id: string }[];
    assert.equal((await api.delete(`/v2/webhooks/${first!.webhook_id}`)).status, 200);
    assert.equal((await api.post('/v2/webhooks', { url: 'https://hooks.example.com/again' })).status, 201);

    const other = await newTeam();
    assert.equal((await other.api.post('/v2/webhooks', { url: 'https://hooks.example.com/other' })).status, 201);
  });

  it('scheduled bots: those waiting for their time count, one by one and in a batch; a cancelled one frees its place', async () => {
    const { api } = await newTeam({ scheduled_bots: 2 });
    const joinAt = new Date(Date.now() + 2 * HOUR).toISOString();
    const body = { meeting_url: MEETING, bot_name: 'Later', join_at: joinAt };
    const first = await api.post('/v2/bots/scheduled', body);
    assert.equal(first.status, 201);
    const batch = await api.post('/v2/bots/scheduled/batch', [body, body]);
    assert.equal(batch.status, 200);
    assert.deepEqual([batch.body.succeeded, batch.body.failed], [1, 1]);
    refusedFor((await api.post('/v2/bots/scheduled', body)), 'scheduled_bots', 2);
    assert.equal((await api.delete(`/v2/bots/scheduled/${first.body.data.bot_id}`)).status, 200);
    assert.equal((await api.post('/v2/bots/scheduled', body)).status, 201);
    // Bots to join at once are not scheduled bots.
    assert.equal((await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Now' })).status, 201);
  });

  it('calendars: connecting one past the limit is refused (legacy and v2); a removed one frees its place', async () => {
    const { api } = await newTeam({ calendars: 1 });
    const account = () => {
      accounts += 1;
      const clientId = `limits-client-${accounts}`;
      fakes.google.oauth.registerClient(clientId, 'client-secret');
      const who = { email: `limits${accounts}@example.com`, name: `Limits ${accounts}` };
      fakes.google.addCalendar(who, { name: 'Work', primary: true });
      return { oauth_client_id: clientId, oauth_client_secret: 'client-secret', oauth_refresh_token: fakes.google.oauth.issueRefreshToken(clientId, who), platform: 'Google' };
    };
    const connected = await api.post('/v2/calendars', account());
    assert.equal(connected.status, 201, JSON.stringify(connected.body));
    refusedFor(await api.post('/v2/calendars', account()), 'calendars', 1);
    refusedFor(await api.post('/calendar', { ...account(), webhook_url: 'https://hooks.example.com/cal' }), 'calendars', 1);
    assert.equal((await api.delete(`/v2/calendars/${connected.body.data.calendar_id}`)).status, 200);
    assert.equal((await api.post('/v2/calendars', account())).status, 201);
  });
});
