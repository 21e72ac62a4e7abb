/**
 * The service's launcher with real processes (the test runs as root, as CI does): bots run the runtime
 * compiled once, from a file the bot user cannot change; the warm pool keeps a bot process with its
 * Chromium started before any job, hands it the next job, refills, replaces a waiting process that dies,
 * and ends the waiting ones when the service stops.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import bunyan from 'bunyan';
import type { BotJob } from '../../contract/bot-contract';
import { lookUpUser } from '../../contract/host/bot-user';
import { childProcessLauncherFor, type ChildProcessLauncher } from '../../src/adapters/bot-launcher/child-process-launcher';
import { compiledBotRuntime } from '../../src/adapters/bot-launcher/compiled-runtime';
import { FakeService } from '../bot-runtime/fake-service';
import { smallTimeouts } from '../bot-runtime/support';
import { eventually } from '../support/eventually';
import { descendantsOf, factsOf } from '../support/processes';

const alive = (pid: number) => factsOf(pid) !== null;
/** The warm process has its Chromium: a browser process below it. */
const hasChromium = (pid: number) => descendantsOf(pid).some((p) => factsOf(p)?.commandLine.startsWith('/usr/lib/chromium/chromium '));

describe('the launcher: the compiled bot runtime and the warm pool (real processes and Chromium)', function () {
  this.timeout(120_000);
  const log = bunyan.createLogger({ name: 'test', streams: [] });
  let service: FakeService;
  let launcher: ChildProcessLauncher;

  before(async () => {
    service = new FakeService('bot-warm-1', 'token-warm-1');
    await service.start();
    launcher = childProcessLauncherFor(log, { botPoolSize: 1 }, 1);
    void launcher.start(); // what the service's dispatcher does when it starts
  });
  after(async () => {
    await launcher?.close();
    await service?.stop();
  });

  /** The one waiting process (not `previous`) once its Chromium is up. */
  const oneWarmProcess = (previous?: number) =>
    eventually(async () => launcher.warmPids, (pids) => pids.length === 1 && pids[0] !== previous && hasChromium(pids[0]!), 200);

  it('no process waits before the service starts the launcher (a service that fails to start leaves none behind)', async () => {
    const unstarted = childProcessLauncherFor(log, { botPoolSize: 1 }, 1);
    try {
      await compiledBotRuntime(); // what a started launcher waits for before it fills its pool
      assert.deepEqual(unstarted.warmPids, []);
    } finally {
      await unstarted.close();
    }
  });

  it('bots run the compiled runtime under plain node, as the bot user, from a file only the service can change', async () => {
    const main = await compiledBotRuntime();
    const [pid] = await oneWarmProcess();
    const facts = factsOf(pid!)!;
    assert.equal(facts.commandLine, `${process.execPath} ${main}`, 'no TypeScript loader');
    assert.equal(facts.uids[0], lookUpUser('meetbot')!.uid);
    for (const [file, mode] of [[main, 0o644], [path.dirname(main), 0o755]] as const) {
      const stat = statSync(file);
      assert.equal(stat.uid, process.getuid!(), `${file} belongs to the service`);
      assert.equal(stat.mode & 0o777, mode, `${file} is not writable by the bot user`);
    }
  });

  it('a waiting process takes the next job with its Chromium already started, and the pool starts another', async () => {
    const [warm] = await oneWarmProcess();
    const job: BotJob = {
      bot_id: service.botId,
      // a URL no driver joins: the run ends at once and reports it, and the process exits
      meeting_url: 'https://example.com/not-a-meeting',
      platform: 'mt',
      bot_name: 'Warm Bot',
      bot_image: [],
      entry_message: null,
      recording_mode: 'audio_only',
      timeout_config: smallTimeouts,
      ignored_participant_names: [],
      upload: { kind: 'http', baseUrl: service.url, token: service.token },
      trust_sandbox_certificate: false,
    };
    const launched = await launcher.launch(job, { serviceUrl: service.url, botToken: service.token });
    assert.equal(launched.pid, warm, 'the job went to the waiting process');
    await oneWarmProcess(warm); // a new process waits in its place
    const exit = await launched.exited;
    assert.deepEqual([exit.code, exit.signal], [0, null], exit.stderrTail);
    const end = service.reports.find((r) => r.kind === 'end');
    assert.equal(end?.kind === 'end' ? end.error_code : null, 'INVALID_MEETING_URL');
    assert.equal(alive(warm!), false);
  });

  it('a waiting process that dies is replaced', async () => {
    const [warm] = await oneWarmProcess();
    process.kill(warm!, 'SIGKILL');
    await oneWarmProcess(warm);
  });

  it('when the service stops, the waiting processes and their Chromium end', async () => {
    const [warm] = await oneWarmProcess();
    const below = descendantsOf(warm!);
    await launcher.close();
    assert.deepEqual(launcher.warmPids, []);
    await eventually(async () => [warm!, ...below].filter(alive), (left) => left.length === 0, 200);
  });
});
