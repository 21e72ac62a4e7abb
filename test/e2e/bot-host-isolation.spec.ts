/**
 * What a bot may touch on its host (README "Security", Bots), seen from outside its processes: the service
 * (running as root, as in CI) starts it as the unprivileged bot user; its Chromium keeps its sandbox
 * (renderers in their own user namespace under a seccomp filter, no `--no-sandbox`); the bot's and
 * Chromium's environments hold only the allow-list, never the bot's token nor the service's variables;
 * and the bot's user cannot read DATA_DIR, even one that was made open to everyone.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { lookUpUser } from '../../contract/host/bot-user';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createBot, waitForBot } from '../support/api-bots';
import { eventually } from '../support/eventually';
import { apiClient, createTeam } from '../support/http-client';
import { descendantsOf, factsOf, type ProcessFacts } from '../support/processes';
import { startTestService, type TestService } from '../support/test-service';

const run = promisify(execFile);

/** The bot process's variables: what the launcher passes (contract/host/environment.ts), nothing inherited. */
const BOT_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'NODE_ENV', 'CHROMIUM_PATH', 'SANDBOX_REPLICAS', 'BOT_JOB_ON_STDIN'];
/** Chromium's: what launch-browser passes, and what Debian's /usr/bin/chromium wrapper (a shell script) sets itself. */
const CHROMIUM_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'PWD', 'CHROME_WRAPPER', 'CHROME_DESKTOP', 'CHROME_VERSION_EXTRA', 'CHROMIUM_FLAGS', 'GOOGLE_API_KEY', 'GOOGLE_DEFAULT_CLIENT_ID', 'GOOGLE_DEFAULT_CLIENT_SECRET',
  // its own display and sound server, the card WebGL names, no application for the meeting apps' links (issue 22)
  'DISPLAY', 'XAUTHORITY', 'PULSE_SERVER', 'force_gl_vendor', 'force_gl_renderer', 'BROWSER'];

describe('a bot on its host: its own user, Chromium sandboxed, an allow-listed environment, no way into DATA_DIR', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let dataDir: string;
  const canary = `canary-${process.pid}-${Date.now()}`;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    // as a folder made by hand with the usual umask: open to everyone until the service closes it
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-open-data-'));
    chmodSync(dataDir, 0o755);
    process.env.SERVICE_VARIABLE_CANARY = canary;
    t = await startTestService({ botSlots: 1, dataDir });
  });
  after(async () => {
    if (process.env.DEBUG_LOG) process.stderr.write(t?.logText() ?? '');
    delete process.env.SERVICE_VARIABLE_CANARY;
    await t?.stop();
    await sandbox?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs as the bot user, with Chromium sandboxed, only allow-listed variables and no read access to DATA_DIR', async () => {
    const botUser = lookUpUser('meetbot');
    assert.ok(botUser, 'the install script made the bot user');
    const api = apiClient(t.url, (await createTeam(t.url, { tokens: 10 })).api_key);
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: true });
    const botId = await createBot(api, meeting.url);
    await waitForBot(api, botId, (b) => b.status === 'in_waiting_room');

    const started = t
      .logText()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; bot_id?: string; pid?: number })
      .find((l) => l.msg === 'bot process started' && l.bot_id === botId);
    assert.ok(started?.pid, 'the service logged the bot process');
    const bot = factsOf(started.pid)!;
    // the meeting page's renderer is up once the bot waits in the lobby
    const processes = await eventually(
      async () => descendantsOf(started.pid!).map(factsOf).filter((f): f is ProcessFacts => f !== null),
      (below) => below.some((f) => f.commandLine.includes(' --type=renderer ')),
    );
    const chromium = processes.filter((f) => f.commandLine.startsWith('/usr/lib/chromium/'));
    const browser = chromium.find((f) => f.commandLine.startsWith('/usr/lib/chromium/chromium ') && !f.commandLine.includes(' --type='));
    assert.ok(browser, `Chromium's browser process among ${chromium.map((f) => f.commandLine.slice(0, 80))}`);
    const named = (f: ProcessFacts) => f.commandLine.slice(0, 80);

    // the bot user, everywhere, and no supplementary group
    for (const f of [bot, ...processes]) {
      assert.deepEqual(f.uids, [botUser.uid, botUser.uid, botUser.uid, botUser.uid], `${named(f)} runs as ${botUser.name}`);
      assert.deepEqual(f.groups, [], `${named(f)} has no supplementary group`);
    }
    // its display and sound server are its own, the bot user's (checked above), the display without TCP
    const xvfb = processes.find((f) => f.commandLine.startsWith('/usr/bin/Xvfb '));
    assert.ok(xvfb && / -nolisten tcp\b/.test(xvfb.commandLine) && / -auth \S+/.test(xvfb.commandLine), `a display of its own: ${xvfb?.commandLine}`);
    assert.ok(processes.some((f) => f.commandLine.startsWith('/usr/bin/pulseaudio ')), 'a sound server of its own');
    // the sandbox: never switched off, renderers in a user namespace of their own, under seccomp-bpf
    for (const f of chromium) assert.ok(!/ --no-sandbox\b/.test(f.commandLine), `no --no-sandbox: ${named(f)}`);
    const renderers = chromium.filter((f) => f.commandLine.includes(' --type=renderer '));
    assert.ok(renderers.length > 0);
    for (const r of renderers) {
      assert.equal(r.seccomp, 2, 'a seccomp filter confines the renderer');
      assert.notEqual(r.userNamespace, browser.userNamespace, "the renderer is in the sandbox's user namespace");
    }

    // environments by allow-list; the token and the service's variables nowhere, not even on a command line
    // The bot's token (bt1.<run id>.<expiry>.<key id>.<mac>) names its run: where the run id is not seen, neither is the token.
    const dispatched = (await t.service.eventStore.readStream(botStreamName(botId))).find((e) => e.type === 'BotDispatched');
    const runId = (dispatched?.data as { run_id?: string } | undefined)?.run_id;
    assert.ok(runId, 'the bot was dispatched with a run id');
    const token = `bt1.${runId}.`;
    assert.deepEqual([...bot.env.keys()].filter((k) => !BOT_VARIABLES.includes(k)), [], 'the bot process has only its allow-list');
    assert.deepEqual([...browser.env.keys()].filter((k) => !CHROMIUM_VARIABLES.includes(k)), [], 'Chromium has only its allow-list');
    for (const f of [bot, ...processes]) {
      const seen = `${f.environText}\n${f.commandLine}`;
      assert.ok(!seen.includes(token), `the bot's token is not visible in ${named(f)}`);
      assert.ok(!seen.includes(canary), `the service's variables are not visible in ${named(f)}`);
    }

    // DATA_DIR: closed by the service at start, and unreadable to the bot's user
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    // (the service secret is no longer kept in DATA_DIR: SERVICE_SECRET here, by default a 0600 file outside it)
    const files = readdirSync(dataDir).filter((n) => /events|checkpoints/.test(n));
    assert.ok(files.some((n) => n.startsWith('checkpoints')) && files.some((n) => n.startsWith('events')), `the log and the checkpoints are there: ${files}`);
    for (const name of files) {
      const asBot = run('setpriv', [`--reuid=${bot.uids[0]}`, `--regid=${botUser.gid}`, '--clear-groups', 'head', '-c', '1', path.join(dataDir, name)]);
      await assert.rejects(asBot, /Permission denied/, `the bot's user cannot read ${name}`);
    }

    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);
    await waitForBot(api, botId, (b) => b.status === 'completed' || b.status === 'failed');
  });
});
