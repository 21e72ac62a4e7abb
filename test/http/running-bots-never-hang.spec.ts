import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { BotJob } from '../../bot-runtime/contract';
import type { LaunchedBot } from '../../src/adapters/bot-launcher/port';
import { handleBotCommand } from '../../src/commands/bot-commands';
import { asBot } from '../support/as-bot';
import { readUntil } from '../support/read-until';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

/** A launcher that cannot start bots named "Unlaunchable", as spawn fails on a job too large for it. */
class SometimesFailingLauncher extends ScriptedLauncher {
  override launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): LaunchedBot {
    if (job.bot_name === 'Unlaunchable') throw new Error('spawn E2BIG');
    return super.launch(job, connection);
  }
}


describe('a bot is never left hanging', () => {
  describe('with a running dispatcher', () => {
    let t: TestService;
    let launcher: SometimesFailingLauncher;
    let api: ReturnType<typeof apiClient>;
    let teamId: string;

    before(async () => {
      launcher = new SometimesFailingLauncher();
      t = await startTestService({ botSlots: 10, overrides: { launcher } });
      const team = await createTeam(t.url, { tokens: 10 });
      api = apiClient(t.url, team.api_key);
      teamId = team.team_id;
    });
    after(() => t.stop());

    const createBot = async (bot_name = 'Runner') => {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name });
      assert.equal(created.status, 201);
      return created.body.data.bot_id as string;
    };
    const reservedThousandths = async () => Math.round((await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data.reserved * 1000);

    it('a leave asked while the bot is still starting (not listening yet) reaches it at its first poll', async () => {
      const botId = await createBot();
      const bot = asBot(await launcher.waitForLaunch(botId));
      const leave = await api.post(`/v2/bots/${botId}/leave`);
      assert.equal(leave.status, 200);
      assert.match(leave.body.data?.message ?? leave.body.message, /as soon as it can be reached/);

      await bot.status('joining_call');
      const first = await bot.poll(5);
      assert.deepEqual(first.body.requests.map((r: { kind: string }) => r.kind), ['leave']);
      assert.deepEqual((await bot.poll(5)).body.requests, first.body.requests, 'again until the bot answers it');
      assert.equal((await bot.answer({ id: first.body.requests[0].id, ok: true })).status, 204);
      // Answered: the next poll waits as usual (the bot polls on while it finishes, and must not spin).
      const startedAt = Date.now();
      assert.deepEqual((await bot.poll(1)).body.requests, []);
      assert.ok(Date.now() - startedAt >= 900, 'the poll waited for its wait_seconds');
    });

    it('a bot the service has already ended, whose process lives on, is told to leave at its next poll', async () => {
      const botId = await createBot();
      const launch = await launcher.waitForLaunch(botId);
      const bot = asBot(launch);
      await bot.status('joining_call');
      assert.deepEqual((await bot.poll(0)).body.requests, [], 'nothing for a bot that runs normally');
      launch.exit({ signal: 'SIGKILL' }); // the service sees the process end (in truth it lives on)
      await readUntil(() => api.get(`/v2/bots/${botId}`).then((r) => r.body.data.status), (s) => s === 'failed');
      const polled = await bot.poll(5);
      assert.deepEqual(polled.body.requests.map((r: { kind: string }) => r.kind), ['leave']);
    });

    it('a bot whose process cannot be started ends failed with INTERNAL_ERROR, and its reservation is released', async () => {
      const before = await reservedThousandths();
      const botId = await createBot('Unlaunchable');
      const details = await readUntil(() => api.get(`/v2/bots/${botId}`).then((r) => r.body.data), (d) => d.status === 'failed');
      assert.equal(details.status, 'failed');
      assert.equal(details.error_code, 'INTERNAL_ERROR');
      assert.match(details.error_message, /could not be started: spawn E2BIG/);
      assert.equal(await readUntil(reservedThousandths, (r) => r === before), before, 'its 0.5-token reservation was released');
      assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 409, 'it has ended: nothing left to leave');
    });

    it('the internal API takes a bot id in any case as the same bot', async () => {
      const botId = await createBot();
      const launch = await launcher.waitForLaunch(botId);
      const shouting = asBot(launch, botId.toUpperCase());
      const bytes = Buffer.from('log line\n');
      assert.equal((await shouting.upload('bot.log', bytes, 'text/plain')).status, 204);
      const reported = await shouting.report({ kind: 'artifact', artifact_type: 'bot_log', key: 'bot.log', content_type: 'text/plain', size_bytes: bytes.length, at: new Date().toISOString() });
      assert.equal(reported.status, 204);
      const [artifact] = (await api.get(`/v2/bots/${botId}`)).body.data.artifacts;
      const download = await fetch(artifact.url);
      assert.equal(download.status, 200, 'stored under the bot’s own folder');
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);
    });
  });

  it('at start, an instance fails only the bots its own previous run left running', async () => {
    let t = await startTestService({ instanceId: 'instance-b' });
    try {
      const team = await createTeam(t.url, { tokens: 10 });
      const botId = (await apiClient(t.url, team.api_key).post('/v2/bots', { meeting_url: MEETING, bot_name: 'Orphan' })).body.data.bot_id;
      // instance-a took the bot and then died without a trace
      await handleBotCommand(t.service.commands, botId, { type: 'DispatchBot', worker_id: 'instance-a', now: new Date().toISOString() });
      const statusAfterRestart = async () => (await apiClient(t.url, team.api_key).get(`/v2/bots/${botId}`)).body.data;

      t = await t.restart({ instanceId: 'instance-b' });
      assert.equal((await statusAfterRestart()).status, 'queued', 'another instance leaves it alone');

      t = await t.restart({ instanceId: 'instance-a' });
      const details = await statusAfterRestart();
      assert.equal(details.status, 'failed', 'its own instance, back, fails it');
      assert.equal(details.error_code, 'SIGTERM');
    } finally {
      await t.stop();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
