/**
 * Bots from the warm pool, through the whole service (real processes, Chromium and the sandbox): a bot goes
 * to the process that waited for it and records with the browser that process had started; the pool then
 * waits with a new one. A pooled bot that crashes fails like any bot, and the pool goes on. A job whose browser needs other switches than the waiting one has (a sandbox meeting's
 * certificate pin, when the service does not route the replicas) gets a browser of its own, and records too.
 * A signed-in bot (issue 20) from the pool signs in after it takes its job, in the tab its process opened
 * before the job, on Microsoft's pages (tm) and through Google to our SAML identity provider (mt).
 */
import assert from 'node:assert/strict';
import bunyan from 'bunyan';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { childProcessLauncherFor, type ChildProcessLauncher } from '../../src/adapters/bot-launcher/child-process-launcher';
import { checkRecording, createBot, outcome, waitForBot } from '../support/api-bots';
import { eventually } from '../support/eventually';
import { apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const quiet = bunyan.createLogger({ name: 'test', streams: [] });

/** What the bot wrote in its log (the `bot.log` artifact). */
const botLog = async (bot: { artifacts: { key: string; url: string }[] }): Promise<string> => {
  const log = bot.artifacts.find((a) => a.key === 'bot.log');
  assert.ok(log, 'the bot stored its log');
  return (await fetch(log.url)).text();
};

describe('bots from the warm pool (real Chromium, sandbox, child processes)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  const services: TestService[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    for (const t of services) await t.stop();
    await sandbox?.stop();
  });

  const serviceWithPool = async (sandboxReplicas: string | undefined) => {
    const launcher = childProcessLauncherFor(quiet, { sandboxReplicas, botPoolSize: 1 }, 2);
    const t = await startTestService({ botSlots: 2, sandboxReplicas, overrides: { launcher } });
    services.push(t);
    const api = apiClient(t.url, (await createTeam(t.url, { tokens: 20 })).api_key);
    return { t, api, launcher };
  };

  /** A tm login of contoso.com and an mt login of example.com (our IdP entered in Google's replica), each its email group. */
  const signedInLogins = async (api: ReturnType<typeof apiClient>) => {
    const client = sandbox.client;
    await client.putMicrosoftAccount({ email: 'pooled@contoso.com', password: 'Pooled-password-1', display_name: 'Contoso Pooled' });
    const tm = (await api.post('/v2/tm-workspaces', { domain: 'contoso.com' })).body.data;
    const tmLogin = await api.post('/v2/tm-logins', { email: 'pooled@contoso.com', password: 'Pooled-password-1', name: 'Pooled', email_group: 'pooled@contoso.com', workspace_id: tm.workspace_id });
    assert.equal(tmLogin.status, 201, JSON.stringify(tmLogin.body));
    const mt = (await api.post('/v2/mt-workspaces', { domain: 'example.com' })).body.data;
    await client.putGoogleDomain('example.com', { sign_in_url: mt.sso.sign_in_page_url, certificate: mt.sso.certificate });
    await client.putGoogleAccount({ email: 'pooled@example.com', display_name: 'Example Pooled' });
    const mtLogin = await api.post('/v2/mt-logins', { email: 'pooled@example.com', name: 'Pooled', email_group: 'pooled@example.com', workspace_id: mt.workspace_id });
    assert.equal(mtLogin.status, 201, JSON.stringify(mtLogin.body));
  };

  const waitingProcess = (launcher: ChildProcessLauncher, previous?: number) =>
    eventually(async () => launcher.warmPids, (pids) => pids.length === 1 && pids[0] !== previous && launcher.warmReadyCount === 1, 200);

  /** A bot in an mt meeting without lobby: records a phrase, leaves, ends completed with the speech in its recording. */
  const recordOnce = async (api: ReturnType<typeof apiClient>, whileRecording: (botId: string) => Promise<void> = async () => undefined) => {
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    const speaker = await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    const botId = await createBot(api, meeting.url);
    await waitForBot(api, botId, (b) => b.status === 'in_call_recording');
    await whileRecording(botId);
    await sandbox.client.speak(meeting.meeting_id, speaker.participant_id, 'The quarterly numbers are ready for review');
    await sandbox.client.waitFor(meeting.meeting_id, (m) => m.speaking.length === 0, 30_000, 'the phrase to be over');
    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const ended = await waitForBot(api, botId, (b) => (b.status === 'completed' || b.status === 'failed') && b.artifacts.some((a: { key: string }) => a.key === 'bot.log'));
    assert.equal(`${ended.status} ${ended.error_code}`, 'completed API_REQUEST', JSON.stringify(ended));
    await checkRecording(api, ended);
    return ended;
  };

  it('a bot takes the waiting process and its browser; the pool waits with a new one', async () => {
    const { t, api, launcher } = await serviceWithPool(`127.0.0.1:${sandbox.port}`);
    const [warm] = await waitingProcess(launcher);
    const ended = await recordOnce(api, async (botId) => {
      assert.equal(t.service.dispatcher.pidOf(botId), warm, 'the bot runs in the process that waited');
      await waitingProcess(launcher, warm);
    });
    assert.match(await botLog(ended), /browser ready in \d+ ms \(started before the job\)/);
  });

  it('a bot from the pool that crashes fails with its crash code, like any bot; the pool keeps its waiting process', async () => {
    const { t, api, launcher } = await serviceWithPool(`127.0.0.1:${sandbox.port}`);
    const [warm] = await waitingProcess(launcher);
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: true });
    const botId = await createBot(api, meeting.url);
    await waitForBot(api, botId, (b) => b.status === 'in_waiting_room');
    assert.equal(t.service.dispatcher.pidOf(botId), warm);
    const [next] = await waitingProcess(launcher, warm);
    process.kill(warm!, 'SIGKILL');
    const ended = await waitForBot(api, botId, (b) => b.status === 'failed');
    assert.equal(ended.error_code, 'FORCE_KILLED');
    assert.deepEqual(launcher.warmPids, [next], 'the waiting process is untouched');
  });

  it('a job needing other browser switches than the waiting browser has gets its own browser, and records', async () => {
    // no SANDBOX_REPLICAS: the waiting browser has no pin, the sandbox meeting needs its certificate's
    const { api, launcher } = await serviceWithPool(undefined);
    await waitingProcess(launcher);
    const ended = await recordOnce(api);
    const log = await botLog(ended);
    assert.match(log, /browser started before the job/);
    assert.match(log, /browser ready in \d+ ms\n/, 'a browser of its own');
  });

  it('a signed-in bot from the pool signs in after it takes its job (tm: Microsoft; mt: Google and our IdP) and is in an organisation-only meeting under its account', async () => {
    const { t, api, launcher } = await serviceWithPool(`127.0.0.1:${sandbox.port}`);
    await signedInLogins(api);
    const cases = [
      { meeting: { platform: 'tm', replica: 'teams', organisation_only: 'contoso.com' }, body: { tm_config: { email_group: 'pooled@contoso.com' } }, account: ['Contoso Pooled', 'pooled@contoso.com'] },
      { meeting: { platform: 'mt', replica: 'meet', organisation_only: 'example.com' }, body: { mt_config: { email_group: 'pooled@example.com' } }, account: ['Example Pooled', 'pooled@example.com'] },
    ] as const;
    for (const c of cases) {
      const [warm] = await waitingProcess(launcher);
      const meeting = await sandbox.client.createMeeting({ ...c.meeting, lobby: false });
      await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
      const botId = await createBot(api, meeting.url, c.body);
      const recording = await waitForBot(api, botId, (b) => b.status === 'in_call_recording' || b.status === 'completed' || b.status === 'failed');
      assert.equal(recording.status, 'in_call_recording', JSON.stringify(recording));
      assert.equal(t.service.dispatcher.pidOf(botId), warm, `${c.meeting.platform}: the bot runs in the process that waited`);
      const inCall = (await sandbox.client.getMeeting(meeting.meeting_id)).participants.filter((p) => p.kind === 'browser' && p.state === 'in_call');
      assert.deepEqual(inCall.map((p) => [p.name, p.signed_in_as]), [c.account], `${c.meeting.platform}: in the call signed in`);
      await sandbox.client.end(meeting.meeting_id);
      const ended = await waitForBot(api, botId, (b) => (b.status === 'completed' || b.status === 'failed') && b.artifacts.some((a: { key: string }) => a.key === 'bot.log'));
      assert.equal(outcome(ended), 'completed BOT_REMOVED', JSON.stringify(ended));
      assert.match(await botLog(ended), /browser ready in \d+ ms \(started before the job\)/, `${c.meeting.platform}: the browser the process started before the job`);
    }
    const signIns = (await sandbox.client.identity()).sign_ins.filter((s) => s.email.startsWith('pooled@'));
    assert.deepEqual(signIns.map((s) => [s.platform, s.outcome]), [['tm', 'signed_in'], ['mt', 'signed_in']]);
  });
});
