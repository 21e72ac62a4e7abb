import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { apiClient, createTeam, MEETING, request } from '../support/http-client';
import { asBot, runToken } from '../support/as-bot';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService, type TestServiceOptions } from '../support/test-service';

const HOUR = 60 * 60 * 1000;
const KIB = 1024;

/** A body sent in chunks, without a content-length: the service learns its size only by reading it. */
const chunkedBody = (bytes: Buffer): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 512) controller.enqueue(new Uint8Array(bytes.subarray(i, i + 512)));
      controller.close();
    },
  });

/** A service whose bots are handed to the test, on a clock the test moves. */
const serviceWithScriptedBots = (options: TestServiceOptions = {}) => {
  const env = {
    t: undefined as unknown as TestService,
    api: undefined as unknown as ReturnType<typeof apiClient>,
    launcher: new ScriptedLauncher(),
    nowMs: Date.UTC(2026, 10, 21, 15),
  };
  before(async () => {
    env.t = await startTestService({ botSlots: 20, clock: () => new Date(env.nowMs), overrides: { launcher: env.launcher }, ...options });
    env.api = apiClient(env.t.url, (await createTeam(env.t.url, { tokens: 20 })).api_key);
  });
  after(() => env.t.stop());
  const startBot = async () => {
    const created = await env.api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Runner' });
    assert.equal(created.status, 201);
    const botId = created.body.data.bot_id as string;
    const launch = await env.launcher.waitForLaunch(botId);
    return { botId, launch, bot: asBot(launch) };
  };
  const endReport = (at: number) => ({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 1, waiting_room_seconds: 0, at: new Date(at).toISOString() });
  const stored = (botId: string, key: string) => existsSync(path.join(env.t.dataDir, 'artifacts', botId, ...key.split('/')));
  return { env, startBot, endReport, stored };
};

describe('a bot token is bound to one run of one bot, and expires', () => {
  const { env, startBot, endReport } = serviceWithScriptedBots();

  it('a token signed by the service for another run of the same bot is refused', async () => {
    const { botId, bot } = await startBot();
    assert.equal((await bot.status('joining_call')).status, 204, 'the token of the bot’s run works');
    const otherRun = asBot({ job: { bot_id: botId }, serviceUrl: env.t.url, botToken: runToken(env.t, botId, randomUUID()) });
    assert.equal((await otherRun.status('in_call_recording')).status, 401);
    assert.equal((await otherRun.poll(0)).status, 401);
    assert.equal((await env.api.get(`/v2/bots/${botId}`)).body.data.status, 'joining_call');
  });

  it('a token without a run (the bot id’s HMAC the service used to hand out) is refused', async () => {
    const { botId, launch } = await startBot();
    const parts = launch.botToken.split('.');
    const mac = parts[parts.length - 1]!;
    const unbound = await request(`${env.t.url}/internal/bots/${botId}`, 'GET', '/control?wait_seconds=0', { headers: { authorization: `Bearer ${mac}` } });
    assert.equal(unbound.status, 401);
  });

  it('holds beyond the longest possible run (36 h), and no longer than 48 h', async () => {
    const { bot } = await startBot();
    const startedAt = env.nowMs;
    try {
      env.nowMs = startedAt + 36 * HOUR + 10 * 60_000;
      assert.equal((await bot.poll(0)).status, 200);
      env.nowMs = startedAt + 48 * HOUR + 1000;
      const expired = await bot.poll(0);
      assert.equal(expired.status, 401);
      assert.match(expired.body.message, /expired/);
    } finally {
      env.nowMs = startedAt;
    }
  });

  it('once the bot has ended, its token reports and uploads nothing more; its control channel only tells it to leave', async () => {
    const { botId, bot } = await startBot();
    assert.equal((await bot.status('joining_call')).status, 204);
    assert.equal((await bot.report(endReport(env.nowMs))).status, 204);
    assert.equal((await bot.report(endReport(env.nowMs))).status, 204, 'a repeated end report (a lost answer) is answered as the first');

    const late = await bot.status('in_call_recording');
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'FST_ERR_BOT_ENDED');
    const upload = await bot.upload('recording.mp3', Buffer.from('late'), 'audio/mpeg');
    assert.equal(upload.status, 409);
    assert.equal(upload.body.code, 'FST_ERR_BOT_ENDED');
    const artifact = await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: 4, at: new Date(env.nowMs).toISOString() });
    assert.equal(artifact.status, 409);
    const poll = await bot.poll(0);
    assert.equal(poll.status, 200);
    assert.deepEqual(poll.body.requests.map((r: { kind: string }) => r.kind), ['leave']);
    const details = (await env.api.get(`/v2/bots/${botId}`)).body.data;
    assert.deepEqual([details.status, details.artifacts], ['completed', []]);
  });
});

describe('bot uploads: never a replacement, within each kind’s size limit', () => {
  const { env, startBot, stored } = serviceWithScriptedBots({ artifactSizeLimits: { bot_log: 4 * KIB, screenshot: 2 * KIB } });
  const reportArtifact = (bot: ReturnType<typeof asBot>, artifact_type: string, key: string, size: number) =>
    bot.report({ kind: 'artifact', artifact_type, key, content_type: 'application/octet-stream', size_bytes: size, at: new Date(env.nowMs).toISOString() });

  it('a stored recording is never overwritten; an upload tried again before it was reported is taken', async () => {
    const { botId, bot } = await startBot();
    const recording = Buffer.from('the real recording');
    assert.equal((await bot.upload('recording.mp3', Buffer.from('half an attempt'), 'audio/mpeg')).status, 204);
    assert.equal((await bot.upload('recording.mp3', recording, 'audio/mpeg')).status, 204, 'a retry of an upload not yet reported');
    assert.equal((await reportArtifact(bot, 'recording', 'recording.mp3', recording.length)).status, 204);

    const overwrite = await bot.upload('recording.mp3', Buffer.from('something else'), 'audio/mpeg');
    assert.equal(overwrite.status, 409);
    assert.equal(overwrite.body.code, 'FST_ERR_ARTIFACT_EXISTS');
    const [artifact] = (await env.api.get(`/v2/bots/${botId}`)).body.data.artifacts;
    assert.deepEqual(Buffer.from(await (await fetch(artifact.url)).arrayBuffer()), recording);
  });

  it('an upload that says it is larger than its kind allows is refused before it is read', async () => {
    const { botId, bot } = await startBot();
    const refused = await bot.upload('bot.log', Buffer.alloc(4 * KIB + 1, 'x'), 'text/plain');
    assert.equal(refused.status, 413);
    assert.equal(refused.body.code, 'FST_ERR_ARTIFACT_TOO_LARGE');
    assert.match(refused.body.message, /bot_log .* at most 4096 bytes/);
    assert.equal(stored(botId, 'bot.log'), false);
    assert.equal((await bot.upload('bot.log', Buffer.alloc(4 * KIB, 'x'), 'text/plain')).status, 204, 'the limit itself is allowed');
  });

  it('an upload without a declared length is stopped at the limit and leaves nothing behind', async () => {
    const { botId, launch } = await startBot();
    const put = (key: string, bytes: Buffer) =>
      fetch(`${env.t.url}/internal/bots/${botId}/artifacts/${key}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${launch.botToken}`, 'content-type': 'image/png' },
        body: chunkedBody(bytes),
        duplex: 'half',
      } as RequestInit);
    const refused = await put('screenshots/1.png', Buffer.alloc(3 * KIB, 1));
    assert.equal(refused.status, 413);
    assert.equal(((await refused.json()) as { code: string }).code, 'FST_ERR_ARTIFACT_TOO_LARGE');
    assert.equal(stored(botId, 'screenshots/1.png'), false);
    assert.equal((await put('screenshots/2.png', Buffer.alloc(2 * KIB, 1))).status, 204);
    assert.equal(stored(botId, 'screenshots/2.png'), true);
  });
});

describe('bot uploads when DATA_DIR runs short of space', () => {
  // More free space than any disk has: every upload finds the disk "full", as a real full disk would.
  const { startBot, stored } = serviceWithScriptedBots({ minFreeDiskBytes: 2 ** 60 });

  it('are refused with a clear 507 that names no path, and store nothing; reports still go to the event log', async () => {
    const { botId, bot } = await startBot();
    const refused = await bot.upload('recording.mp3', Buffer.from('audio'), 'audio/mpeg');
    assert.equal(refused.status, 507);
    assert.equal(refused.body.code, 'FST_ERR_INSUFFICIENT_STORAGE');
    assert.match(refused.body.message, /short of disk space \(\d+ MiB free, \d+ MiB kept free for its event log\)/);
    assert.doesNotMatch(refused.body.message, /\//, 'no path of the service');
    assert.equal(stored(botId, 'recording.mp3'), false);
    assert.equal((await bot.status('joining_call')).status, 204);
  });
});
