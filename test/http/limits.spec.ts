import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

describe('limits: tokens, daily cap, rate limit, deduplication', () => {
  let t: TestService;
  let nowMs = Date.UTC(2026, 10, 21, 12);
  before(async () => {
    t = await startTestService({ clock: () => new Date(nowMs) });
  });
  after(() => t.stop());

  const bot = (name = 'Bot', extra: Record<string, unknown> = {}) => ({ meeting_url: MEETING, bot_name: name, ...extra });

  it('reserves 0.5 token per bot and answers 402 when the balance cannot cover one more', async () => {
    const team = await createTeam(t.url, { tokens: 1 });
    const api = apiClient(t.url, team.api_key);
    assert.equal((await api.post('/v2/bots', bot())).status, 201);
    assert.equal((await api.post('/v2/bots', bot())).status, 201);
    const refused = await api.post('/v2/bots', bot());
    assert.equal(refused.status, 402);
    assert.equal(refused.body.code, 'FST_ERR_INSUFFICIENT_TOKENS');
    const ledger = (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data;
    assert.equal(ledger.balance, 1);
    assert.equal(ledger.reserved, 1);
    assert.equal(ledger.available, 0);
  });

  it('two creations at once for the last reservation (decided together, written together): one 201, one 402, one bot in the list', async () => {
    const team = await createTeam(t.url, { tokens: 0.5 });
    const api = apiClient(t.url, team.api_key);
    const answers = await Promise.all([api.post('/v2/bots', bot('First')), api.post('/v2/bots', bot('Second'))]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 402], JSON.stringify(answers.map((a) => a.body)));
    assert.equal(answers.find((a) => a.status === 402)!.body.code, 'FST_ERR_INSUFFICIENT_TOKENS');
    const listed = (await api.get('/v2/bots')).body.data.bots.map((b: { bot_id: string }) => b.bot_id);
    assert.deepEqual(listed, [answers.find((a) => a.status === 201)!.body.data.bot_id]);
    const ledger = (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data;
    assert.equal(ledger.reserved, 0.5);
    assert.equal(ledger.available, 0);
  });

  it('releases the reservation of a bot that left before recording', async () => {
    const team = await createTeam(t.url, { tokens: 2 });
    const api = apiClient(t.url, team.api_key);
    const botId = (await api.post('/v2/bots', bot())).body.data.bot_id;
    await api.post(`/v2/bots/${botId}/leave`);
    // Settlement is a subscriber: wait for it rather than assume its timing.
    let ledger: any;
    for (let i = 0; i < 50; i++) {
      ledger = (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data;
      if (ledger.reserved === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(ledger.reserved, 0);
    assert.equal(ledger.balance, 2);
  });

  it('refuses bots past the daily cap with 429 and retryAfter, counted over a rolling 24 h', async () => {
    const team = await createTeam(t.url, { tokens: 100, daily_bot_cap: 2 });
    const api = apiClient(t.url, team.api_key);
    const start = nowMs;
    assert.equal((await api.post('/v2/bots', bot())).status, 201);
    nowMs = start + 60 * 60 * 1000;
    assert.equal((await api.post('/v2/bots', bot())).status, 201);
    nowMs = start + 2 * 60 * 60 * 1000;
    const refused = await api.post('/v2/bots', bot());
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'FST_ERR_DAILY_BOT_CAP_REACHED');
    assert.equal(refused.body.retryAfter, 22 * 60 * 60);
    assert.equal(refused.headers.get('retry-after'), String(22 * 60 * 60));
    nowMs = start + 24 * 60 * 60 * 1000 + 1;
    assert.equal((await api.post('/v2/bots', bot())).status, 201);
    nowMs = start + 48 * 60 * 60 * 1000;
  });

  it('checks the daily cap before the tokens', async () => {
    const team = await createTeam(t.url, { tokens: 0.5, daily_bot_cap: 1 });
    const api = apiClient(t.url, team.api_key);
    assert.equal((await api.post('/v2/bots', bot())).status, 201);
    const refused = await api.post('/v2/bots', bot());
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'FST_ERR_DAILY_BOT_CAP_REACHED');
  });

  it('rate limits non-GET requests per team with 429, retryAfter and Retry-After, and never GETs', async () => {
    const team = await createTeam(t.url, { tokens: 100, rate_limit_per_second: 2 });
    const api = apiClient(t.url, team.api_key);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.post('/v2/bots', bot())).status);
    assert.deepEqual(statuses.slice(0, 2), [201, 201]);
    const limited = await api.post('/v2/bots', bot());
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'FST_ERR_TOO_MANY_REQUESTS');
    assert.ok(Number.isInteger(limited.body.retryAfter) && limited.body.retryAfter >= 1);
    assert.equal(limited.headers.get('retry-after'), String(limited.body.retryAfter));
    for (let i = 0; i < 20; i++) assert.equal((await api.get('/v2/bots')).status, 200);
    // The limit is the team's, not the key's.
    const second = await adminClient(t.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'full' });
    assert.equal((await apiClient(t.url, second.body.data.api_key).post('/v2/bots', bot())).status, 429);
  });

  it('refuses a second exclusive bot for the same meeting within 5 minutes with 409', async () => {
    const team = await createTeam(t.url);
    const api = apiClient(t.url, team.api_key);
    const exclusive = bot('Solo', { allow_multiple_bots: false });
    assert.equal((await api.post('/v2/bots', exclusive)).status, 201);
    const refused = await api.post('/v2/bots', { ...exclusive, meeting_url: `${MEETING}/` });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'FST_ERR_BOT_ALREADY_EXISTS');
    assert.equal((await api.post('/v2/bots', bot('Other'))).status, 201, 'a non-exclusive bot still joins');
    nowMs += 5 * 60 * 1000;
    assert.equal((await api.post('/v2/bots', exclusive)).status, 201, 'after 5 minutes the meeting is free again');
  });

  it('lets exactly one of many concurrent exclusive requests win', async () => {
    const team = await createTeam(t.url, { tokens: 100 });
    const api = apiClient(t.url, team.api_key);
    const meeting = 'https://meet.google.com/xyz-abcd-efg';
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.post('/v2/bots', { meeting_url: meeting, bot_name: 'Racer', allow_multiple_bots: false })),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    // The losers' reservations were released: only one bot holds tokens.
    const ledger = (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data;
    assert.equal(ledger.reserved, 0.5);
    assert.equal(ledger.bots_last_24h, 1);
  });
});
