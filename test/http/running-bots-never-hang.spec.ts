import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import type { BotJob } from '../../contract/bot-contract';
import type { LaunchedBot } from '../../src/adapters/bot-launcher/port';
import { asBot, runToken, takeBotToRun } from '../support/as-bot';
import { readUntil } from '../support/read-until';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher, type ScriptedLaunch } from '../support/scripted-launcher';
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

});

describe('what a restart does to running bots: watched, never left hanging', () => {
  const MINUTE = 60_000;
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  let t: TestService;
  /** A worker (it runs bots: a heartbeat lease, a watch of its bots) on the scripted launcher, watching often. */
  const options = (instanceId: string, botSlots = 1) => ({ instanceId, clock, botSlots, overrides: { launcher: new ScriptedLauncher(), botWatch: { sweepMs: 20 } } });
  /** The stores as the dead run left them: an api process that does not watch (the test plays the run's worker). */
  const before = (instanceId: string) => ({ ...options(instanceId, 0), overrides: { botWatch: { sweepMs: 3_600_000 } } });

  beforeEach(() => (offsetMs = 0));
  afterEach(async () => {
    await t.stop();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  /**
   * A bot that instance `instanceId` ran and whose process outlived it: the test plays that instance's run,
   * which held its heartbeat lease and then died (the lease is left to lapse within a second).
   */
  const botRunBy = async (instanceId: string) => {
    const team = await createTeam(t.url, { tokens: 10 });
    const api = apiClient(t.url, team.api_key);
    const created = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Survivor' })).body.data.bot_id as string;
    const { runId } = await takeBotToRun(t, created, instanceId);
    const teamReserved = async () => Math.round((await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data.reserved * 1000);
    return { api, botId: created, runId, teamId: team.team_id, teamReserved };
  };
  /** The dead run's heartbeat: held by an owner that never renews it, so it lapses as a crashed process's does. */
  const leaseOfADeadRun = async (instanceId: string) => {
    const store = new SqliteCheckpointStore(path.join(t.dataDir, 'checkpoints.sqlite3'));
    try {
      assert.ok(await store.acquireLease(`worker-${instanceId}`, `${instanceId}/crashed`, 1000));
    } finally {
      await store.close();
    }
  };
  /**
   * Restarts on the same port. The test's HTTP client pools connections, and one to the old process would
   * fail once (a bot retries such a failure); a few reads drain them.
   */
  const restartAs = async (instanceId: string, botSlots = 1) => {
    t = await t.restart({ ...options(instanceId, botSlots), keepPort: true });
    for (let i = 0; i < 5; i += 1) await fetch(`${t.url}/health`).catch(() => undefined);
  };
  /** The bot process speaks to whichever service answers at the URL it was given (the same port after a restart). */
  const asTheBot = (botId: string, runId: string) => asBot({ job: { bot_id: botId }, serviceUrl: t.url, botToken: runToken(t, botId, runId) });

  it('a bot whose process outlived a crash of its worker is watched after the restart and ends as it reports, charged for its recording', async () => {
    t = await startTestService(before('instance-a'));
    const { api, botId, runId, teamId } = await botRunBy('instance-a');
    const bot = () => asTheBot(botId, runId);
    assert.equal((await bot().status('joining_call')).status, 204);
    assert.equal((await bot().status('in_call_recording')).status, 204);

    await leaseOfADeadRun('instance-a');
    await restartAs('instance-a');
    assert.deepEqual(t.service.botWatch.watchedBots, [botId], 'its previous run’s bot is watched, not failed');
    assert.equal((await bot().poll(0)).status, 200, 'the bot calls the restarted service at the same address');
    // Longer in all than a silent bot may stay, but this one calls in between (as it polls every 20 s).
    for (let i = 0; i < 3; i += 1) {
      offsetMs += MINUTE;
      await bot().poll(0);
    }
    const end = await bot().report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: 'left', recorded_seconds: 3600, waiting_room_seconds: 0, at: clock().toISOString() });
    assert.equal(end.status, 204);
    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.deepEqual([details.status, details.error_code], ['completed', 'API_REQUEST']);
    const team = await readUntil(() => adminClient(t.url).get(`/admin/teams/${teamId}`), (r) => r.body.data.reserved === 0);
    assert.equal(team.body.data.balance, 9, 'one hour of recording: one token');
  });

  it('a bot of the previous run that never calls again is failed SIGTERM after 2 minutes, its reservation released', async () => {
    t = await startTestService(before('instance-a'));
    const { api, botId, runId, teamReserved } = await botRunBy('instance-a');
    await asTheBot(botId, runId).status('joining_call');
    await leaseOfADeadRun('instance-a');
    await restartAs('instance-a');
    offsetMs += 1.5 * MINUTE;
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.status, 'joining_call', 'not yet');
    offsetMs += MINUTE;
    const details = await readUntil(() => api.get(`/v2/bots/${botId}`).then((r) => r.body.data), (d) => d.status === 'failed');
    assert.deepEqual([details.status, details.error_code], ['failed', 'SIGTERM']);
    assert.match(details.error_message, /did not come back after the service restarted/);
    assert.equal(await readUntil(teamReserved, (r) => r === 0), 0);
  });

  it('bots of a worker that vanished (its heartbeat lease lapsed) end GENERAL_ERROR once silent, uncharged; one that still calls carries on', async () => {
    t = await startTestService(before('instance-a'));
    const alive = await botRunBy('instance-a');
    const silentBot = await botRunBy('instance-a');
    const survivor = asTheBot(alive.botId, alive.runId);
    await survivor.status('joining_call');
    await asTheBot(silentBot.botId, silentBot.runId).status('joining_call');
    await leaseOfADeadRun('instance-a');
    // Another machine; instance-a never comes back.
    await restartAs('instance-b', 0);
    offsetMs += 20_000; // longer than a lease (15 s) without a call from the silent one
    await survivor.poll(0);
    const lost = await readUntil(() => silentBot.api.get(`/v2/bots/${silentBot.botId}`).then((r) => r.body.data), (d) => d.status === 'failed');
    assert.equal(lost.error_code, 'GENERAL_ERROR');
    assert.match(lost.error_message, /worker running the bot \(instance-a\) vanished/);
    assert.equal(await readUntil(silentBot.teamReserved, (r) => r === 0), 0, 'reservation released');
    assert.equal((await adminClient(t.url).get(`/admin/teams/${silentBot.teamId}`)).body.data.balance, 10, 'nothing charged');
    assert.equal((await alive.api.get(`/v2/bots/${alive.botId}`)).body.data.status, 'joining_call', 'the one that calls carries on');

    offsetMs += 20_000; // and once it too is silent for longer than a lease, it ends the same way
    const gone = await readUntil(() => alive.api.get(`/v2/bots/${alive.botId}`).then((r) => r.body.data), (d) => d.status === 'failed');
    assert.equal(gone.error_code, 'GENERAL_ERROR');
  });

  it('a watched bot that goes silent after calling is failed GENERAL_ERROR', async () => {
    t = await startTestService(before('instance-a'));
    const { api, botId, runId } = await botRunBy('instance-a');
    await leaseOfADeadRun('instance-a');
    await restartAs('instance-a');
    await asTheBot(botId, runId).status('joining_call');
    offsetMs += 2 * MINUTE + 1000;
    const details = await readUntil(() => api.get(`/v2/bots/${botId}`).then((r) => r.body.data), (d) => d.status === 'failed');
    assert.deepEqual([details.error_code, details.error_message], ['GENERAL_ERROR', 'The bot stopped answering the service.']);
  });

  it('two live processes with one INSTANCE_ID: the second fails to start, naming it', async () => {
    t = await startTestService(options('instance-a'));
    await assert.rejects(
      startTestService({ ...options('instance-a'), dataDir: t.dataDir }),
      /INSTANCE_ID instance-a is in use by another live process .* give every worker its own INSTANCE_ID/,
    );
  });
});
