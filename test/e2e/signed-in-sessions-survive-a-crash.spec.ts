/**
 * Login sessions are projections of their events: a SIGKILL of the service while a signed-in bot is in its
 * meeting loses nothing. The restarted service (another instance, which takes the running bot over) shows
 * the same utilization, and the session is released when the bot ends.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { eventually } from '../support/eventually';
import { apiClient, createTeam } from '../support/http-client';
import { freePort, ServiceProcess } from '../support/service-process';

describe('login sessions survive a SIGKILL of the service (a real service process, a real bot)', function () {
  this.timeout(240_000);
  let dataDir: string;
  let sandbox: RunningSandbox;
  let first: ServiceProcess;
  let second: ServiceProcess;

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-login-crash-'));
    sandbox = await startSandbox({ port: 0 });
    const port = await freePort();
    // One deployment: both instances share the service secret, so the running bot's token holds across the crash.
    const env = { DATA_DIR: dataDir, BOT_SLOTS: '2', SANDBOX_REPLICAS: `127.0.0.1:${sandbox.port}`, SERVICE_SECRET: randomBytes(32).toString('hex') };
    first = new ServiceProcess(port, { ...env, INSTANCE_ID: 'before-the-crash' });
    second = new ServiceProcess(port, { ...env, INSTANCE_ID: 'after-the-crash' });
  });
  after(async () => {
    await first.kill();
    await second.kill();
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('utilization is exact after the restart, and the session is given back when the bot ends', async () => {
    await first.start();
    const api = apiClient(first.url, (await createTeam(first.url, { tokens: 100 })).api_key);
    await sandbox.client.putMicrosoftAccount({ email: 'survivor@contoso.com', password: 'Surv1ve-the-crash', display_name: 'Contoso Survivor' });
    const workspace = (await api.post('/v2/tm-workspaces', { domain: 'contoso.com' })).body.data.workspace_id;
    const credential = (await api.post('/v2/tm-logins', { email: 'survivor@contoso.com', password: 'Surv1ve-the-crash', name: 'Survivor', email_group: 'crash@contoso.com', workspace_id: workspace })).body.data.credential_id;
    const meeting = await sandbox.client.createMeeting({ platform: 'tm', replica: 'teams', lobby: false });
    await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    const botId = (await api.post('/v2/bots', { meeting_url: meeting.url, bot_name: 'Recorder Bot', recording_mode: 'audio_only', tm_config: { email_group: 'crash@contoso.com' } })).body.data.bot_id;
    await eventually(() => api.get(`/v2/bots/${botId}`), (r) => r.body.data.status === 'in_call_recording', 250);
    const before = (await api.get('/v2/tm-logins/utilization')).body.data;
    assert.equal(before.concurrent_sessions, 1);

    await first.kill();
    await second.start();
    const after = (await api.get('/v2/tm-logins/utilization')).body.data;
    assert.deepEqual(after, before, 'the same figures, rebuilt from the log');
    assert.equal((await api.get(`/v2/tm-logins/${credential}`)).body.data.active_session_count, 1);
    const bot = (await sandbox.client.getMeeting(meeting.meeting_id)).participants.find((p) => p.kind === 'browser');
    assert.deepEqual([bot?.state, bot?.name], ['in_call', 'Contoso Survivor'], 'the bot stayed in its meeting, signed in');

    await sandbox.client.end(meeting.meeting_id);
    await eventually(() => api.get(`/v2/bots/${botId}`), (r) => r.body.data.status === 'completed' || r.body.data.status === 'failed', 250);
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.status, 'completed', 'the bot outlived the crash and ended with the meeting');
    await eventually(() => api.get('/v2/tm-logins/utilization'), (r) => r.body.data.concurrent_sessions === 0, 250);
  });
});
