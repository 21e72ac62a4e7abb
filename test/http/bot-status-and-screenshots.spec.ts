import assert from 'node:assert/strict';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { runScriptedMeeting } from '../support/scripted-bot-run';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

describe('GET /v2/bots/{id}/status and the screenshots (v2 and legacy)', () => {
  let nowMs = Date.UTC(2026, 2, 3, 9);
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 10, clock: () => new Date(nowMs), overrides: { launcher } });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 50 })).api_key);
  });
  after(() => t.stop());

  const create = async (body: Record<string, unknown> = {}) => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Watcher', ...body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.data.bot_id as string;
  };
  const statusOf = async (botId: string) => {
    const answered = await api.get(`/v2/bots/${botId}/status`);
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    return answered.body.data;
  };
  /** A bot that ran a whole scripted meeting: two screenshots among its uploads. */
  const ranBot = async (body: Record<string, unknown> = {}) => {
    const botId = await create(body);
    await runScriptedMeeting(await launcher.waitForLaunch(botId));
    await readUntil(() => statusOf(botId), (s) => s.status === 'completed');
    return botId;
  };

  it('the status: the current one, when it changed, the history and how the bot ended', async () => {
    const botId = await create();
    const queued = await statusOf(botId);
    assert.deepEqual(queued, {
      bot_id: botId, status: 'queued', transcription_status: 'not-applicable', updated_at: new Date(nowMs).toISOString(),
      error_code: null, error_message: null, status_history: [{ status: 'queued', created_at: new Date(nowMs).toISOString() }],
    });
    nowMs += 5000;
    await runScriptedMeeting(await launcher.waitForLaunch(botId));
    const ended = await readUntil(() => statusOf(botId), (s) => s.status === 'completed');
    assert.deepEqual(ended.status_history.map((s: { status: string }) => s.status), ['queued', 'joining_call', 'in_call_not_recording', 'in_call_recording', 'completed']);
    assert.equal(ended.updated_at, ended.status_history.at(-1).created_at);
    assert.equal(ended.error_code, 'NO_ATTENDEES');
    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.deepEqual(ended.status_history, details.status_history, 'the same history as the details');
  });

  it('the transcription status: not started while the bot runs, then as its transcription goes', async () => {
    const botId = await create({ transcription_enabled: true });
    assert.equal((await statusOf(botId)).transcription_status, 'not-started');
    await runScriptedMeeting(await launcher.waitForLaunch(botId));
    // The scripted recording is no audio PocketSphinx can read: the transcription fails, and says so.
    const done = await readUntil(() => statusOf(botId), (s) => s.transcription_status === 'error' || s.transcription_status === 'done');
    assert.equal(done.transcription_status, 'error');
    assert.equal(done.status, 'completed', 'the bot itself stays completed');
  });

  it('v2 screenshots: oldest first, pages with cursors both ways, links signed at each read that serve the images', async () => {
    const botId = await ranBot();
    const first = await api.get(`/v2/bots/${botId}/screenshots?limit=1`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.success, true);
    assert.deepEqual(first.body.data.map((s: { screenshot_id: number }) => s.screenshot_id), [1]);
    assert.equal(first.body.prev_cursor, null);
    assert.equal(Buffer.from(await (await fetch(first.body.data[0].url)).arrayBuffer()).toString(), 'PNG screenshot one');
    const second = await api.get(`/v2/bots/${botId}/screenshots?limit=1&cursor=${first.body.cursor}`);
    assert.deepEqual(second.body.data.map((s: { screenshot_id: number }) => s.screenshot_id), [2]);
    assert.equal(second.body.cursor, null, 'the last page');
    assert.equal(Buffer.from(await (await fetch(second.body.data[0].url)).arrayBuffer()).toString(), 'PNG screenshot two');
    const back = await api.get(`/v2/bots/${botId}/screenshots?limit=1&cursor=${second.body.prev_cursor}`);
    assert.deepEqual(back.body.data, first.body.data);

    const all = (await api.get(`/v2/bots/${botId}/screenshots`)).body;
    assert.equal(all.data.length, 2, '50 a page by default');
    nowMs += 60_000;
    const later = (await api.get(`/v2/bots/${botId}/screenshots`)).body;
    assert.notEqual(later.data[0].url, all.data[0].url, 'a fresh link at each read');
    assert.equal(Date.parse(later.data[0].url_expires_at), Math.floor(nowMs / 1000) * 1000 + 2 * 3600_000, 'valid 2 hours from the read');

    const other = await ranBot();
    const crossed = await api.get(`/v2/bots/${other}/screenshots?cursor=${first.body.cursor}`);
    assert.equal(crossed.status, 400);
    assert.match(crossed.body.message, /^querystring\/cursor is not a cursor returned by this API for this bot/);
    assert.equal((await api.get(`/v2/bots/${botId}/screenshots?limit=251`)).status, 400);
  });

  it('legacy screenshots: every one as {date, url}, oldest first', async () => {
    const botId = await ranBot();
    const listed = await api.get(`/bots/${botId}/screenshots`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.length, 2);
    assert.deepEqual(Object.keys(listed.body[0]).sort(), ['date', 'url']);
    assert.ok(listed.body[0].date <= listed.body[1].date);
    assert.equal(Buffer.from(await (await fetch(listed.body[1].url)).arrayBuffer()).toString(), 'PNG screenshot two');
  });

  it('another team sees none of it: 404', async () => {
    const botId = await create();
    const stranger = apiClient(t.url, (await createTeam(t.url)).api_key);
    for (const path of [`/v2/bots/${botId}/status`, `/v2/bots/${botId}/screenshots`, `/bots/${botId}/screenshots`]) {
      const answered = await stranger.get(path);
      assert.equal(answered.status, 404, path);
      assert.equal(answered.body.code, 'FST_ERR_BOT_NOT_FOUND');
    }
  });
});
