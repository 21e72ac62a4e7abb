import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiClient, MEETING } from '../support/http-client';
import { startTestService, testServiceSecret } from '../support/test-service';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

const admin = async (dataDir: string, ...args: string[]) => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/admin-cli.ts'), ...args], {
    cwd: ROOT,
    // the service's own secret, as an operator's shell has it: the CLI opens what the service sealed
    env: { ...process.env, DATA_DIR: dataDir, EVENTSTORE_URL: '', MONGO_URL: '', SERVICE_SECRET: testServiceSecret(dataDir), SERVICE_SECRET_FILE: '' },
  });
  return JSON.parse(stdout);
};

describe('npm run admin', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-admin-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a team whose key works on the service, adds tokens, issues keys and rebuilds projections', async () => {
    const team = await admin(dataDir, 'create-team', '--name', 'cli team', '--tokens', '2.5', '--daily-bot-cap', '3');
    assert.match(team.team_id, /^[0-9a-f-]{36}$/);
    assert.match(team.api_key, /^mbs_/);

    const topped = await admin(dataDir, 'add-tokens', '--team', team.team_id, '--amount', '1.5');
    assert.equal(topped.balance, 4);
    const sending = await admin(dataDir, 'issue-key', '--team', team.team_id, '--permission', 'sending');
    assert.equal(sending.permission, 'sending');

    const service = await startTestService({ dataDir });
    try {
      const created = await apiClient(service.url, team.api_key).post('/v2/bots', { meeting_url: MEETING, bot_name: 'From CLI' });
      assert.equal(created.status, 201);
      assert.equal((await apiClient(service.url, sending.api_key).get('/v2/bots')).status, 403);
    } finally {
      await service.service.stop();
    }

    const limited = await admin(dataDir, 'set-limits', '--team', team.team_id, '--webhook-endpoints', '4', '--calendars', '2');
    assert.deepEqual(limited.limits, { scheduled_bots: 5_000, webhook_endpoints: 4, calendars: 2 });

    const shown = await admin(dataDir, 'show-team', '--team', team.team_id);
    assert.deepEqual(shown.limits, limited.limits);
    assert.equal(shown.reserved, 0.5);
    assert.equal(shown.bots_last_24h, 1);
    assert.equal(shown.daily_bot_cap, 3);

    const rebuilt = await admin(dataDir, 'rebuild-projections');
    assert.ok(rebuilt.events_read >= 6, JSON.stringify(rebuilt));
    assert.equal(rebuilt.events_applied, rebuilt.events_read);
    assert.equal(typeof rebuilt.milliseconds, 'number');
  });

  it('refuses bad input with a message and a non-zero exit', async () => {
    await assert.rejects(admin(dataDir, 'create-team', '--name', 'x', '--tokens', '-1'), /tokens/);
    await assert.rejects(admin(dataDir, 'add-tokens', '--team', '00000000-0000-0000-0000-000000000000', '--amount', '1'), /not found/i);
    await assert.rejects(admin(dataDir, 'set-limits', '--team', '00000000-0000-0000-0000-000000000000', '--calendars=-2'), /calendars must be an integer/);
  });
});
