import assert from 'node:assert/strict';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { startTestService, type TestService } from '../support/test-service';

const WINDOW_MS = 60_000;

/**
 * GETs are not rate limited, so a read of meeting_data must not append an event each time: reads of a
 * bot by one key are held for a window and recorded together, and every one of them still counts.
 */
describe('legacy meeting_data reads: counted exactly, recorded coalesced', () => {
  let nowMs = Date.UTC(2026, 4, 5, 9);
  const tick = (ms: number) => (nowMs += ms);
  const at = () => new Date(nowMs).toISOString();
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let apiKey: string;

  before(async () => {
    t = await startTestService({ clock: () => new Date(nowMs), overrides: { dataAccess: { windowMs: WINDOW_MS, sweepMs: 20 } } });
    apiKey = (await createTeam(t.url)).api_key;
    api = apiClient(t.url, apiKey);
  });
  after(() => t.stop());

  const newBot = async () => (await api.post('/bots', { meeting_url: MEETING, bot_name: 'Polled' })).body.bot_id as string;
  const read = async (botId: string) => assert.equal((await api.get(`/bots/meeting_data?bot_id=${botId}&include_transcripts=false`)).status, 200);
  const listed = async (botId: string) => (await api.get('/bots/bots_with_metadata?limit=50')).body.bots.find((b: { uuid: string }) => b.uuid === botId);
  const accessEvents = async (botId: string) =>
    (await t.service.eventStore.readStream(`bot-${botId}`)).filter((e) => e.type === 'BotDataAccessed').map((e) => [e.data.reads, e.data.at]);

  it('a bot read 500 times in a window appends one event at once and one when the window closes, counting all 500 at the last read’s time', async () => {
    const botId = await newBot();
    const firstRead = at();
    await read(botId);
    const first = await listed(botId);
    assert.deepEqual([first.access_count, first.last_accessed_at], [1, firstRead], 'the first read counts at once');
    for (let i = 0; i < 499; i++) {
      if (i === 250) tick(1_000);
      await read(botId);
    }
    const lastRead = at();
    assert.deepEqual(await accessEvents(botId), [[1, firstRead]], 'the reads after the first are held');

    tick(WINDOW_MS);
    const item = await readUntil(() => listed(botId), (b) => b.access_count === 500);
    assert.deepEqual([item.access_count, item.last_accessed_at], [500, lastRead]);
    assert.deepEqual(await accessEvents(botId), [[1, firstRead], [499, lastRead]]);

    // Read without pause, window after window: one event a window.
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < 20; i++) await read(botId);
      tick(WINDOW_MS);
      await readUntil(() => listed(botId), (b) => b.access_count === 500 + 20 * (window + 1));
    }
    assert.equal((await accessEvents(botId)).length, 5);
    assert.equal((await listed(botId)).access_count, 560);
  });

  it('a stop records the reads it holds: a restart loses none', async () => {
    const botId = await newBot();
    for (let i = 0; i < 30; i++) await read(botId);
    assert.equal((await listed(botId)).access_count, 1);
    t = await t.restart();
    api = apiClient(t.url, apiKey);
    assert.equal((await listed(botId)).access_count, 30);
    assert.deepEqual((await accessEvents(botId)).map(([reads]) => reads), [1, 29]);
  });
});
