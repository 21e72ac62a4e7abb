import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asBot } from '../support/as-bot';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { freePort, ServiceProcess } from '../support/service-process';
import { startTestService, type TestService } from '../support/test-service';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const SANDBOX_MEETING = 'https://mt.localhost:8443/abc-defg-hij';

/** Every file and folder under `root`, itself included. */
const everything = (root: string): string[] => [root, ...readdirSync(root, { recursive: true, encoding: 'utf8' }).map((p) => path.join(root, p))];

describe('what a service start does for safety', () => {
  let t: TestService | null = null;
  let dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'safe-start-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await t?.stop();
    t = null;
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    dirs = [];
  });

  it('keeps its data for its own user: DATA_DIR 0700 and every file 0600 (event log, checkpoints, artifacts), an older readable folder included', async () => {
    const dataDir = path.join(tempDir(), 'data');
    // As an earlier version left it: a world-readable folder and event log.
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'events.sqlite3'), '', { mode: 0o644 });
    chmodSync(path.join(dataDir, 'events.sqlite3'), 0o644);
    const launcher = new ScriptedLauncher();
    t = await startTestService({ dataDir, botSlots: 1, overrides: { launcher } });
    const api = apiClient(t.url, (await createTeam(t.url)).api_key);
    const botId = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Private' })).body.data.bot_id as string;
    const bot = asBot(await launcher.waitForLaunch(botId));
    assert.equal((await bot.upload('screenshots/1.png', Buffer.from('png'), 'image/png')).status, 204);

    const made = everything(dataDir);
    for (const name of ['events.sqlite3', 'checkpoints.sqlite3', path.join('artifacts', botId, 'screenshots', '1.png')]) {
      assert.ok(made.includes(path.join(dataDir, name)), `${name} is there`);
    }
    for (const entry of made) {
      assert.equal(modeOf(entry), statSync(entry).isDirectory() ? 0o700 : 0o600, `${path.relative(dataDir, entry) || 'DATA_DIR'}: ${modeOf(entry).toString(8)}`);
    }
  });

  it('logs the development conveniences that are on, in one warning line; none when none is', async () => {
    t = await startTestService({ sandboxReplicas: '127.0.0.1:9' });
    const warnings = (text: string) => text.split('\n').filter((line) => /development conveniences on/.test(line));
    const [line, ...more] = warnings(t.logText());
    assert.deepEqual(more, []);
    assert.equal(JSON.parse(line!).level, 40, 'a warning');
    assert.deepEqual(JSON.parse(line!).conveniences, ['SANDBOX_HOSTS', 'SANDBOX_REPLICAS', 'ALLOW_PRIVATE_WEBHOOK_TARGETS', 'ALLOW_PRIVATE_STORAGE_ENDPOINTS']);
    await t.stop();
    t = await startTestService({ sandboxHosts: false, allowPrivateWebhookTargets: false, allowPrivateStorageEndpoints: false });
    assert.deepEqual(warnings(t.logText()), []);
  });

  it('bots trust the sandbox certificate only while SANDBOX_HOSTS is on', async () => {
    t = await startTestService({ sandboxHosts: true });
    const api = apiClient(t.url, (await createTeam(t.url)).api_key);
    const made = async () => (await api.post('/v2/bots', { meeting_url: SANDBOX_MEETING, bot_name: 'Sandboxed' })).body.data.bot_id as string;
    const [first, second] = [await made(), await made()];
    const launcher = new ScriptedLauncher();
    t = await t.restart({ sandboxHosts: true, botSlots: 1, overrides: { launcher } });
    assert.equal((await launcher.waitForLaunch(first)).job.trust_sandbox_certificate, true);
    const next = new ScriptedLauncher();
    t = await t.restart({ sandboxHosts: false, botSlots: 1, overrides: { launcher: next } });
    assert.equal((await next.waitForLaunch(second)).job.trust_sandbox_certificate, false, 'a sandbox bot left from before is not given the trust');
  });
});

describe('npm start (a real service process) with nothing configured is safe', function () {
  this.timeout(120_000);
  let service: ServiceProcess | null = null;
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'safe-process-'))));
  afterEach(async () => {
    await service?.kill();
    service = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts, makes its key outside DATA_DIR, and refuses sandbox meetings and private webhook targets', async () => {
    const dataDir = path.join(dir, 'data');
    const config = path.join(dir, 'config');
    service = new ServiceProcess(await freePort(), { DATA_DIR: dataDir, XDG_CONFIG_HOME: config, SERVICE_SECRET: '', BOT_SLOTS: '0' });
    await service.start();
    const keyFile = path.join(config, 'meeting-bot-service', 'service-secret');
    assert.equal(modeOf(keyFile), 0o600);
    assert.equal(existsSync(path.join(dataDir, 'service-secret')), false, 'no key beside the data');

    const api = apiClient(service.url, (await createTeam(service.url)).api_key);
    const sandboxBot = await api.post('/v2/bots', { meeting_url: SANDBOX_MEETING, bot_name: 'Sandboxed' });
    assert.equal(sandboxBot.status, 400);
    assert.match(sandboxBot.body.message, /meeting_url/);
    const privateHook = await api.post('/v2/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    assert.equal(privateHook.status, 400);
    assert.equal((await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Real' })).status, 201);
  });

  it('refuses to start with a development convenience and NODE_ENV=production, saying which', async () => {
    service = new ServiceProcess(await freePort(), { DATA_DIR: path.join(dir, 'data'), NODE_ENV: 'production', SANDBOX_HOSTS: '1' });
    await assert.rejects(service.start(), /the service exited: .*SANDBOX_HOSTS: development conveniences cannot be set with NODE_ENV=production/s);
  });
});
