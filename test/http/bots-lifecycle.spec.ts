import assert from 'node:assert/strict';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

describe('v2 bots: create, read, list, history, leave, chat', () => {
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  before(async () => {
    // A clock that moves forward on every reading, so creation times never tie.
    let tick = 0;
    t = await startTestService({ clock: () => new Date(Date.UTC(2026, 10, 21, 9) + tick++ * 1000) });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(() => t.stop());

  const createBot = async (body: Record<string, unknown> = {}) => {
    const response = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', ...body });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    return response.body.data.bot_id as string;
  };

  it('creates a queued bot and shows its details at once (read-your-writes)', async () => {
    const response = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', extra: { deal: 42 } });
    assert.equal(response.status, 201);
    assert.equal(response.body.success, true);
    assert.match(response.body.data.bot_id, /^[0-9a-f-]{36}$/);

    const details = await api.get(`/v2/bots/${response.body.data.bot_id}`);
    assert.equal(details.status, 200);
    const bot = details.body.data;
    assert.equal(bot.bot_id, response.body.data.bot_id);
    assert.equal(bot.status, 'queued');
    assert.equal(bot.meeting_url, MEETING);
    assert.equal(bot.bot_name, 'Notetaker');
    assert.equal(bot.platform, 'mt');
    assert.deepEqual(bot.extra, { deal: 42 });
    assert.equal(bot.error_code, null);
    assert.equal(bot.error_message, null);
    assert.ok(!Number.isNaN(Date.parse(bot.created_at)));
    assert.deepEqual(bot.status_history, [{ status: 'queued', created_at: bot.created_at }]);
    assert.equal(bot.team_id, undefined, 'internal fields stay inside');
  });

  it('answers 404 for unknown ids of every accepted UUID form and 400 for anything else', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '6f9619ff-8b86-1011-b42d-00c04fc964ff']) {
      const response = await api.get(`/v2/bots/${id}`);
      assert.equal(response.status, 404, id);
      assert.equal(response.body.code, 'FST_ERR_BOT_NOT_FOUND');
    }
    for (const id of ['abc', '6f9619ff-8b86-d011-b42d-00c04fc964ff', '6f9619ff-8b86-1011-b42d-00c04fc964f', '6f9619ff8b86d011b42d00c04fc964ff0']) {
      const response = await api.get(`/v2/bots/${id}`);
      assert.equal(response.status, 400, id);
      assert.equal(response.body.code, 'FST_ERR_VALIDATION');
      assert.match(response.body.details, /bot_id/);
    }
  });

  it('returns the full event history from the event store', async () => {
    const botId = await createBot();
    await api.post(`/v2/bots/${botId}/leave`);
    const response = await api.get(`/v2/bots/${botId}/events`);
    assert.equal(response.status, 200);
    const events = response.body.data.events;
    assert.deepEqual(events.map((e: { type: string }) => e.type), ['BotCreated', 'BotFailed']);
    assert.deepEqual(events.map((e: { revision: number }) => e.revision), [0, 1]);
    assert.equal(events[0].data.bot_id, botId);
    assert.equal(events[0].data.bot_name, 'Notetaker');
    assert.equal(events[0].data.config.version, 1, 'the domain’s BotConfig, not the HTTP request');
    assert.equal(events[1].data.error_code, 'EXITING_MEETING_BEFORE_RECORD');
  });

  it('ends a queued bot at once on leave, then refuses a second leave with 409', async () => {
    const botId = await createBot();
    const left = await api.post(`/v2/bots/${botId}/leave`);
    assert.equal(left.status, 200);
    assert.equal(left.body.success, true);
    assert.equal(typeof left.body.data.message, 'string');

    const bot = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.equal(bot.status, 'failed');
    assert.equal(bot.error_code, 'EXITING_MEETING_BEFORE_RECORD');
    assert.deepEqual(bot.status_history.map((s: { status: string }) => s.status), ['queued', 'failed']);

    const again = await api.post(`/v2/bots/${botId}/leave`);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'FST_ERR_BOT_STATUS');
  });

  it('refuses chat on a queued bot with 409 and bad chat bodies with 400', async () => {
    const botId = await createBot();
    const queued = await api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'hello' });
    assert.equal(queued.status, 409);
    assert.equal(queued.body.code, 'FST_ERR_BOT_STATUS');
    for (const body of [{ message: '   ' }, { message: '' }, { message: 'x'.repeat(4097) }, {}, { message: 5 }]) {
      const response = await api.post(`/v2/bots/${botId}/send-chat-message`, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.details, /message/);
    }
  });

  it('lists the team’s bots newest first with an opaque cursor', async () => {
    const team = await createTeam(t.url);
    const client = apiClient(t.url, team.api_key);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await client.post('/v2/bots', { meeting_url: MEETING, bot_name: `Bot ${i}` });
      ids.push(r.body.data.bot_id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await client.get(`/v2/bots?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(page.status, 200);
      assert.ok(page.body.data.bots.length <= 3);
      seen.push(...page.body.data.bots.map((b: { bot_id: string }) => b.bot_id));
      cursor = page.body.data.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());
    assert.equal((await client.get('/v2/bots?limit=0')).status, 400);
    assert.equal((await client.get('/v2/bots?limit=101')).status, 400);
    assert.equal((await client.get('/v2/bots?cursor=not-a-cursor')).status, 400);
  });
});
