import assert from 'node:assert/strict';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import { readUntil } from '../support/read-until';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const meeting = (n: number) => `https://meet.google.com/abc-defg-${String(n).padStart(3, '0')}`;

/**
 * 100 items: every 10th has a validation error of its own kind, every 7th is an exclusive bot for the
 * meeting of the item before it (a duplicate inside the batch), the others are plain bots.
 */
const mixedItems = (extra: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: 100 }, (_, i) => {
    const base = { meeting_url: meeting(i), bot_name: `Bot ${i}`, ...extra(i) };
    if (i % 10 === 3) return { ...base, bot_name: '' };
    if (i % 10 === 5) return { ...base, bot_image: 'http://example.com/me.png' };
    if (i % 10 === 9) return { ...base, meeting_url: 'https://example.com/not-a-meeting' };
    if (i % 7 === 6) return { ...base, meeting_url: meeting(i - 1), allow_multiple_bots: false };
    return base;
  });
/**
 * Each item's answer in request order, from the official client's shape (`data` the items made, `errors` the
 * items refused, each by its `index`): a made one as the single request's 201 body, a refused one as the
 * body its single request would get.
 */
const answersOf = (body: { data: { index: number; bot_id: string }[]; errors: { index: number }[] }, count: number): any[] =>
  Array.from({ length: count }, (_, i) => {
    const made = body.data.find((d) => d.index === i);
    if (made) return { success: true, statusCode: 201, data: { bot_id: made.bot_id } };
    const refused = body.errors.find((e) => e.index === i);
    assert.ok(refused, `item ${i} is answered`);
    const { index: _index, extra: _extra, ...single } = refused as Record<string, unknown>;
    return single;
  });
const isInvalid = (i: number) => i % 10 === 3 || i % 10 === 5 || i % 10 === 9;
/** A duplicate whose earlier item was created (not itself invalid). */
const isDuplicate = (i: number) => !isInvalid(i) && i % 7 === 6 && !isInvalid(i - 1);

describe('batches: each item decided on its own, as its single request would be', () => {
  let now = new Date(Date.UTC(2026, 2, 2, 9, 0, 0));
  let t: TestService;
  before(async () => {
    t = await startTestService({ clock: () => now });
  });
  after(() => t.stop());

  const newTeam = async (team: Parameters<typeof createTeam>[1]) => {
    const created = await createTeam(t.url, team);
    return { ...created, api: apiClient(t.url, created.api_key) };
  };

  describe('POST /v2/bots/batch', () => {
    it('100 mixed items: results in request order, the same bodies single requests get, duplicates inside the batch, tokens running out midway', async () => {
      const VALID_BEFORE_EMPTY = 40; // 20 tokens: 40 reservations of 0.5
      const { api, team_id } = await newTeam({ tokens: VALID_BEFORE_EMPTY / 2 });
      const items = mixedItems();
      const response = await api.post('/v2/bots/batch', items);
      assert.equal(response.status, 200, JSON.stringify(response.body).slice(0, 500));
      const { succeeded, failed } = response.body;
      const results = answersOf(response.body, 100);
      assert.equal(response.body.data.length + response.body.errors.length, 100);

      // What single requests answer for the invalid items (validation needs no state) and the refusals.
      const probe = await newTeam({ tokens: 0 });
      let created = 0;
      for (const [i, result] of results.entries()) {
        if (isInvalid(i)) {
          const single = await probe.api.post('/v2/bots', items[i]);
          assert.deepEqual(result, single.body, `item ${i} answers as its single request`);
          assert.equal(result.statusCode, single.status);
        } else if (isDuplicate(i) && created < VALID_BEFORE_EMPTY) {
          assert.equal(result.statusCode, 409, `item ${i}: ${JSON.stringify(result)}`);
          assert.equal(result.code, 'FST_ERR_BOT_ALREADY_EXISTS');
          assert.equal(result.success, false);
        } else if (created < VALID_BEFORE_EMPTY) {
          assert.equal(result.statusCode, 201, `item ${i}: ${JSON.stringify(result)}`);
          assert.equal(result.success, true);
          assert.match(result.data.bot_id, /^[0-9a-f-]{36}$/);
          created += 1;
        } else {
          const single = await probe.api.post('/v2/bots', items[i]);
          assert.equal(single.status, 402);
          assert.deepEqual(result, single.body, `item ${i}: out of tokens, as its single request`);
        }
      }
      assert.equal(created, VALID_BEFORE_EMPTY);
      assert.equal(succeeded, VALID_BEFORE_EMPTY);
      assert.equal(failed, 100 - VALID_BEFORE_EMPTY);

      // Every bot it reports exists (read-your-writes), for its own meeting, and the ledger agrees.
      for (const [i, result] of results.entries()) {
        if (!result.success) continue;
        const bot = (await api.get(`/v2/bots/${result.data.bot_id}`)).body.data;
        assert.equal(bot.status, 'queued');
        assert.equal(bot.bot_name, `Bot ${i}`);
      }
      const team = (await adminClient(t.url).get(`/admin/teams/${team_id}`)).body.data;
      assert.equal(team.reserved, VALID_BEFORE_EMPTY / 2);
      assert.equal(team.bots_last_24h, VALID_BEFORE_EMPTY);
    });

    it('the daily cap applies between items: items past it get the 429 a single request would', async () => {
      const { api } = await newTeam({ tokens: 100, daily_bot_cap: 3 });
      const items = Array.from({ length: 5 }, (_, i) => ({ meeting_url: meeting(i), bot_name: `Bot ${i}` }));
      const results = answersOf((await api.post('/v2/bots/batch', items)).body, items.length);
      assert.deepEqual(results.map((r: { statusCode: number }) => r.statusCode), [201, 201, 201, 429, 429]);
      assert.equal(results[3].code, 'FST_ERR_DAILY_BOT_CAP_REACHED');
      assert.ok(results[3].retryAfter >= 1);
    });

    it('one batch counts once against the rate limit', async () => {
      const { api } = await newTeam({ tokens: 100, rate_limit_per_second: 2 });
      const items = Array.from({ length: 20 }, (_, i) => ({ meeting_url: meeting(i), bot_name: `Bot ${i}` }));
      assert.equal((await api.post('/v2/bots/batch', items)).status, 200);
      assert.equal((await api.post('/v2/bots', items[0])).status, 201, 'the second request of the second still passes');
      const third = await api.post('/v2/bots', items[1]);
      assert.equal(third.status, 429);
      assert.equal(third.body.code, 'FST_ERR_TOO_MANY_REQUESTS');
    });

    it('refuses a body that is not an array of 1 to 100 items, creating nothing', async () => {
      const { api } = await newTeam({ tokens: 100 });
      const item = { meeting_url: MEETING, bot_name: 'x' };
      const cases: [unknown, string][] = [
        [item, 'body must be array (of 1 to 100 bot creation requests)'],
        [[], 'body must NOT have fewer than 1 items'],
        [Array.from({ length: 101 }, () => item), 'body must NOT have more than 100 items'],
      ];
      for (const [body, message] of cases) {
        const response = await api.post('/v2/bots/batch', body);
        assert.equal(response.status, 400);
        assert.equal(response.body.code, 'FST_ERR_VALIDATION');
        assert.equal(response.body.message, message);
      }
      assert.equal((await api.post('/v2/bots/batch')).body.message, 'body must be array (of 1 to 100 bot creation requests)');
      assert.deepEqual((await api.get('/v2/bots')).body.data.bots, []);
    });

    it('a Sending Access key may use it', async () => {
      const owner = await newTeam({ tokens: 100 });
      const issued = await adminClient(t.url).post(`/admin/teams/${owner.team_id}/api-keys`, { permission: 'sending' });
      const sending = apiClient(t.url, issued.body.data.api_key);
      const response = await sending.post('/v2/bots/batch', [{ meeting_url: MEETING, bot_name: 'Sent' }]);
      assert.equal(response.status, 200);
      assert.equal(response.body.data[0].index, 0);
      assert.deepEqual(response.body.errors, []);
    });
  });

  describe('POST /v2/bots/scheduled/batch', () => {
    it('100 mixed items: invalid ones refused now; the rest scheduled, then at their time duplicates and the tokens run out', async () => {
      const TOKENS_FOR = 30;
      const { api, team_id } = await newTeam({ tokens: TOKENS_FOR / 2 });
      const joinAt = new Date(now.getTime() + 10 * 60_000).toISOString();
      const items = mixedItems(() => ({ join_at: joinAt }));
      const response = await api.post('/v2/bots/scheduled/batch', items);
      assert.equal(response.status, 200);
      const { succeeded } = response.body;
      const results = answersOf(response.body, items.length);
      const probe = await newTeam({ tokens: 0 });
      const scheduled: { index: number; bot_id: string }[] = [];
      for (const [i, result] of results.entries()) {
        if (isInvalid(i)) {
          const single = await probe.api.post('/v2/bots/scheduled', items[i]);
          assert.deepEqual(result, single.body, `item ${i} answers as its single request`);
        } else {
          // Neither tokens nor duplicates are checked when scheduling: they are checked at the bot's time.
          assert.equal(result.statusCode, 201, `item ${i}: ${JSON.stringify(result)}`);
          scheduled.push({ index: i, bot_id: result.data.bot_id });
        }
      }
      assert.equal(succeeded, scheduled.length);
      assert.equal((await adminClient(t.url).get(`/admin/teams/${team_id}`)).body.data.reserved, 0);

      now = new Date(Date.parse(joinAt) - SCHEDULED_BOT_LEAD_MS);
      await readUntil(async () => t.service.scheduler.waitingCount, (n) => n === 0);
      const outcome = new Map<number, { status: string; error_code: string | null }>();
      for (const { index, bot_id } of scheduled) {
        const bot = (await api.get(`/v2/bots/${bot_id}`)).body.data;
        outcome.set(index, { status: bot.status, error_code: bot.error_code });
      }
      // Bots due at the same instant are queued in the order they were scheduled, each decided as a new bot
      // then: daily cap, tokens, deduplication.
      let queued = 0;
      for (const { index } of scheduled) {
        const expected =
          queued >= TOKENS_FOR
            ? { status: 'failed', error_code: 'INSUFFICIENT_TOKENS' }
            : isDuplicate(index)
              ? { status: 'failed', error_code: 'BOT_ALREADY_EXISTS' }
              : { status: 'queued', error_code: null };
        if (expected.status === 'queued') queued += 1;
        assert.deepEqual(outcome.get(index), expected, `item ${index}`);
      }
      assert.equal(queued, TOKENS_FOR);
      assert.equal((await adminClient(t.url).get(`/admin/teams/${team_id}`)).body.data.reserved, TOKENS_FOR / 2);
    });

    it('one batch counts once against the rate limit', async () => {
      const { api } = await newTeam({ tokens: 100, rate_limit_per_second: 2 });
      const joinAt = new Date(now.getTime() + 10 * 60_000).toISOString();
      const items = Array.from({ length: 20 }, (_, i) => ({ meeting_url: meeting(i), bot_name: `Bot ${i}`, join_at: joinAt }));
      const batch = await api.post('/v2/bots/scheduled/batch', items);
      assert.equal(batch.status, 200);
      assert.equal(batch.body.succeeded, 20);
      assert.equal((await api.post('/v2/bots/scheduled', items[0])).status, 201, 'the second request of the second still passes');
      const third = await api.post('/v2/bots/scheduled', items[1]);
      assert.equal(third.status, 429);
      assert.equal(third.body.code, 'FST_ERR_TOO_MANY_REQUESTS');
    });
  });
});
