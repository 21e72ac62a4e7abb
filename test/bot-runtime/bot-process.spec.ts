/**
 * The bot as a process (bot-runtime/main.ts), against the sandbox:
 * - started by the service: the job, the service's address and the token on standard input; reports, long-polled
 *   control and artifact uploads over the real HTTP classes, against a tiny local server playing the
 *   service; the end of standard input (the service died) ends the run;
 * - standalone through `npm run bot`: command line arguments, artifacts in a folder, Ctrl-C to leave.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotJob, BotLaunch, EndReport } from '../../contract/bot-contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { completeJsonLines } from '../support/json-lines';
import { FakeService } from './fake-service';
import { mediaFacts, sleep, smallTimeouts, tmpDir } from './support';

const root = path.resolve(__dirname, '../..');

const watchProcess = (child: ChildProcess) => {
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))));
  return { child, exited, output: () => output };
};

/** The job the service would give a bot for an mt sandbox meeting, uploading to the fake service. */
const mtJob = (service: FakeService, meetingUrl: string, job: Pick<BotJob, 'bot_name' | 'entry_message' | 'recording_mode'>): BotJob => ({
  bot_id: service.botId,
  meeting_url: meetingUrl,
  platform: 'mt',
  bot_image: [],
  timeout_config: smallTimeouts,
  ignored_participant_names: [],
  upload: { kind: 'http', baseUrl: service.url, token: service.token },
  trust_sandbox_certificate: true,
  ...job,
});

/** As the service starts a bot: the launch on standard input, which stays open until `child.stdin.end()`. */
const startServiceBot = (job: BotJob, service: FakeService, env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(root, 'bot-runtime/main.ts')], {
    cwd: root,
    env: { ...process.env, BOT_JOB_ON_STDIN: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const launch: BotLaunch = { job, service_url: service.url, token: service.token };
  child.stdin!.write(`${JSON.stringify(launch)}\n`);
  return watchProcess(child);
};

/** As a user starts it at a terminal: through npm, in its own process group, so that Ctrl-C reaches all of it. */
const startStandaloneBot = (args: string[]) =>
  watchProcess(spawn('npm', ['run', '--silent', 'bot', '--', ...args], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));

/** What a terminal does on Ctrl-C: SIGINT to every process of the foreground group. */
const pressCtrlC = (child: ChildProcess) => process.kill(-child.pid!, 'SIGINT');

const waitUntil = async (predicate: () => boolean, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
};

describe('bot-runtime process (main.ts)', function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  const children: ChildProcess[] = [];

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });

  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await sb?.stop();
  });

  it('service mode: reports, control requests (long poll) and artifact uploads over the internal HTTP API', async () => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: true });
    const service = new FakeService('3f1c6f7e-0000-4000-8000-00000000b0b1', 'per-bot-token');
    await service.start();
    try {
      const bot = startServiceBot(mtJob(service, m.url, { bot_name: 'Service Bot', entry_message: 'Recording for the service', recording_mode: 'speaker_view' }), service);
      children.push(bot.child);

      const pid = (await sb.client.waitForParticipant(m.meeting_id, 'lobby', 45_000, 'Service Bot')).participant_id;
      await service.waitFor(() => service.statuses().includes('in_waiting_room'), 'in_waiting_room');
      const lobbyChat = await service.send({ kind: 'chat', message: 'too early' });
      assert.equal(lobbyChat.ok === false && lobbyChat.reason, 'not_in_call');
      const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
      await sb.client.admit(m.meeting_id, pid);
      await service.waitFor(() => service.statuses().includes('in_call_recording'), 'in_call_recording');
      const spoken = await sb.client.speak(m.meeting_id, alice.participant_id, 'Testing the service mode.');
      await sleep(spoken.duration_seconds * 1000 + 300);

      assert.deepEqual(await service.send({ kind: 'chat', message: 'Posted through the control channel' }), { id: 'ctl-2', ok: true });
      const texts = (await sb.client.getMeeting(m.meeting_id)).messages.filter((x) => x.participant_id === pid).map((x) => x.text);
      assert.deepEqual(texts, ['Recording for the service', 'Posted through the control channel']);

      assert.deepEqual(await service.send({ kind: 'leave' }), { id: 'ctl-3', ok: true });
      assert.equal(await bot.exited, 0, bot.output());

      const ends = service.reports.filter((r): r is EndReport => r.kind === 'end');
      assert.equal(ends.length, 1);
      assert.equal(service.reports[service.reports.length - 1], ends[0]);
      assert.equal(`${ends[0]!.outcome} ${ends[0]!.error_code}`, 'completed API_REQUEST');
      const seen = service.reports.find((r) => r.kind === 'participants');
      assert.ok(seen?.kind === 'participants', 'who was there is reported before the end');
      assert.deepEqual([seen.participants, seen.speakers], [['Alice'], ['Alice']], 'the bot itself is left out');
      assert.deepEqual(service.statuses(), ['joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'call_ended']);
      assert.equal(service.unauthorized, 0);
      assert.ok(service.polls.length >= 1 && service.polls.every((w) => w === 20), `long polls ${service.polls}`);

      // every reported artifact was uploaded first, with its size and type
      const reported = service.reports.filter((r) => r.kind === 'artifact');
      assert.ok(reported.length > 0);
      for (const r of reported) {
        if (r.kind !== 'artifact') continue;
        const stored = service.artifacts.get(r.key);
        assert.ok(stored, `uploaded ${r.key}`);
        assert.equal(stored.body.length, r.size_bytes, r.key);
        assert.equal(stored.contentType, r.content_type, r.key);
      }
      for (const key of ['recording.mp4', 'audio_chunks/000001.webm', 'chat_messages.json', 'participants.json', 'bot.log', 'screenshots/1.png']) {
        assert.ok(service.artifacts.has(key), `artifact ${key}`);
      }
      const dir = tmpDir('bot-http-');
      const file = path.join(dir, 'recording.mp4');
      fs.writeFileSync(file, service.artifacts.get('recording.mp4')!.body);
      const facts = await mediaFacts(file);
      fs.rmSync(dir, { recursive: true, force: true });
      assert.ok(facts.maxDb > -20, `the uploaded recording has the speech (max ${facts.maxDb} dB)`);
      assert.ok(Math.abs(facts.duration - ends[0]!.recorded_seconds) < 1, `duration ${facts.duration} vs ${ends[0]!.recorded_seconds}`);
    } finally {
      await service.stop();
    }
  });

  it('service mode: the service process dying (its end of standard input closes) does not end the meeting; the bot goes on', async () => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    await sb.client.addSimulated(m.meeting_id, 'Host');
    const service = new FakeService('3f1c6f7e-0000-4000-8000-00000000b0b2', 'per-bot-token');
    await service.start();
    try {
      const bot = startServiceBot(mtJob(service, m.url, { bot_name: 'Orphan Bot', entry_message: null, recording_mode: 'audio_only' }), service);
      children.push(bot.child);
      await service.waitFor(() => service.statuses().includes('in_call_recording'), 'in_call_recording');
      bot.child.stdin!.end(); // what the kernel does to the pipe when the service process dies
      const pollsBefore = service.polls.length;
      await service.waitFor(() => service.polls.length >= pollsBefore + 1, 'a poll after the pipe closed');
      assert.equal(bot.child.exitCode, null, 'still running');
      assert.ok(!service.statuses().includes('call_ended'), 'still in the call');
      assert.equal((await sb.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === 'Orphan Bot')?.state, 'in_call');
      // The restarted service speaks to it as before, and it ends normally.
      assert.deepEqual(await service.send({ kind: 'leave' }), { id: 'ctl-1', ok: true });
      assert.equal(await bot.exited, 0, bot.output());
      const end = service.reports.find((r): r is EndReport => r.kind === 'end');
      assert.equal(end && `${end.outcome} ${end.error_code}`, 'completed API_REQUEST');
      assert.ok(service.artifacts.has('recording.mp3'), 'what it recorded is stored');
    } finally {
      await service.stop();
    }
  });

  it('service mode: a service unreachable for BOT_SERVICE_PATIENCE_SECONDS is gone for good: the bot leaves the meeting', async () => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    await sb.client.addSimulated(m.meeting_id, 'Host');
    const service = new FakeService('3f1c6f7e-0000-4000-8000-00000000b0b3', 'per-bot-token');
    await service.start();
    const bot = startServiceBot(mtJob(service, m.url, { bot_name: 'Abandoned Bot', entry_message: null, recording_mode: 'audio_only' }), service, {
      BOT_SERVICE_PATIENCE_SECONDS: '2',
    });
    children.push(bot.child);
    await service.waitFor(() => service.statuses().includes('in_call_recording'), 'in_call_recording');
    bot.child.stdin!.end();
    await service.stop();
    assert.equal(await bot.exited, 1, 'its end report cannot be delivered either');
    assert.match(bot.output(), /the service is unreachable for good: leaving/);
    assert.equal((await sb.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === 'Abandoned Bot')?.state, 'left');
  });

  it('standalone: command line, artifacts in a folder, Ctrl-C leaves and writes everything', async () => {
    const m = await sb.client.createMeeting({ platform: 'tm', lobby: false });
    await sb.client.addSimulated(m.meeting_id, 'Host');
    const out = tmpDir('bot-cli-');
    const bot = startStandaloneBot(
      ['--meeting-url', m.url, '--name', 'Cli Bot', '--out', out, '--recording-mode', 'audio_only', '--trust-sandbox-certificate', '--screenshot-seconds', '0'],
    );
    children.push(bot.child);
    const reportsFile = path.join(out, 'reports.jsonl');
    const lines = () => (fs.existsSync(reportsFile) ? completeJsonLines(fs.readFileSync(reportsFile, 'utf8')) : []);
    await waitUntil(() => lines().some((r) => r.status === 'in_call_recording'), 'in_call_recording');
    await sleep(1500);
    pressCtrlC(bot.child);
    await bot.exited; // npm itself ends by the SIGINT it passed on, so its exit code says nothing of the bot
    assert.match(bot.output(), /artifacts in .*: completed API_REQUEST/, bot.output());
    assert.doesNotMatch(bot.output(), /exiting without finishing/);
    const end = lines().at(-1);
    assert.equal(`${end.kind} ${end.outcome} ${end.error_code}`, 'end completed API_REQUEST');
    assert.ok(fs.existsSync(path.join(out, 'recording.mp3')));
    assert.ok(fs.existsSync(path.join(out, 'bot.log')));
    assert.ok(!fs.existsSync(path.join(out, 'screenshots')));
    const facts = await mediaFacts(path.join(out, 'recording.mp3'));
    assert.ok(Math.abs(facts.duration - end.recorded_seconds) < 1);
    assert.equal((await sb.client.getMeeting(m.meeting_id)).participants.find((p) => p.name === 'Cli Bot')?.state, 'left');
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('standalone: bad arguments print the usage and exit 2', async () => {
    const bot = startStandaloneBot(['--name', 'x']);
    children.push(bot.child);
    assert.equal(await bot.exited, 2);
    assert.match(bot.output(), /--meeting-url is required[\s\S]*usage: npm run bot/);
  });
});
