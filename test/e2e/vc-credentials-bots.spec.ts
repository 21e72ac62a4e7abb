/**
 * vc joins with credentials, end to end: the whole service, real bot processes and Chromium, the
 * sandbox's vc flavour and its Zoom replica enforcing the platform's Meeting SDK rules (meetings of an
 * organisation, signed joins, OBF tokens of a user in the call, ZAK, the notice banner), and a local fake
 * of the platform's OAuth and REST API whose OBF tokens the sandbox mints. One sandbox and one service
 * for the file; audio-only bots; the OBF retry interval shortened to 2 s by configuration.
 */
import assert from 'node:assert/strict';
import { defaultVcSettings } from '../../src/capabilities/vc-settings';
import type { VcPlatformUser, VcSdkApp } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { FakeVcPlatform } from '../fakes/fake-vc-platform';
import * as bots from '../support/api-bots';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';
import { TokenServer } from '../support/token-server';

const HOST_ORG = 'host-org';
const REDIRECT = 'https://notes.acme.example/vc/callback';
const RETRY_SECONDS = 2;

describe('vc bots join with credentials: OBF tokens three ways, ZAK, SDK credentials (service, bot processes, Chromium, sandbox)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let platform: FakeVcPlatform;
  let tokens: TokenServer;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let teamId: string;
  let serviceApp: VcSdkApp;
  let acmeApp: VcSdkApp;
  let alice: VcPlatformUser;
  let hank: VcPlatformUser;

  const meeting = (options: Record<string, unknown> = {}) => sandbox.client.createMeeting({ platform: 'vc', lobby: false, recording_permission: 'grant', organisation: HOST_ORG, host_user_id: hank.user_id, ...options });
  const obfFor = async (user: VcPlatformUser, meetingId: string, app = serviceApp) => (await sandbox.client.issueVcToken({ type: 'onbehalf', user_id: user.user_id, sdk_key: app.sdk_key, meeting_id: meetingId })).token;
  const botOf = async (meetingId: string) => (await sandbox.client.getMeeting(meetingId)).participants.find((p) => p.name === 'Recorder Bot');
  const outcome = (bot: { status: string; error_code: string | null }) => `${bot.status} ${bot.error_code}`;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    // the platform's apps: the service's default one and the customer's OAuth ("general") app, both of other organisations than the meetings'
    serviceApp = await sandbox.client.createVcApp({ name: 'Meeting Bot Service', organisation: 'service-org', external: true });
    acmeApp = await sandbox.client.createVcApp({ name: 'Acme Notetaker', organisation: 'acme', external: true, sdk_key: 'acme-client-id', sdk_secret: 'acme-client-secret-0001' });
    alice = await sandbox.client.createVcUser({ name: 'Alice Doe', organisation: HOST_ORG, user_id: 'alice-vc' });
    hank = await sandbox.client.createVcUser({ name: 'Hank Host', organisation: HOST_ORG, user_id: 'hank-vc' });
    platform = await new FakeVcPlatform(Date.now, async ({ user, client_id, meeting_number }) =>
      (await sandbox.client.issueVcToken({ type: 'onbehalf', user_id: user.id, sdk_key: client_id, meeting_id: meeting_number })).token,
    ).start();
    platform.registerClient(acmeApp.sdk_key, acmeApp.sdk_secret);
    tokens = await new TokenServer().start();
    t = await startTestService({
      botSlots: 3,
      sandboxReplicas: `127.0.0.1:${sandbox.port}`,
      vc: {
        ...defaultVcSettings,
        platform: { oauthBaseUrl: platform.oauthBaseUrl, apiBaseUrl: platform.apiBaseUrl },
        defaultSdk: { sdk_key: serviceApp.sdk_key, sdk_secret: serviceApp.sdk_secret },
        obfRetrySeconds: RETRY_SECONDS,
        tokenUrlTimeoutMs: 2000,
      },
    });
    const team = await createTeam(t.url, { tokens: 100 });
    teamId = team.team_id;
    api = apiClient(t.url, team.api_key);
  });
  after(async () => {
    await t?.stop();
    await tokens?.stop();
    await platform?.stop();
    await sandbox?.stop();
  });

  it('option 1, a token in the request: joins another organisation’s meeting on the user’s behalf, the banner names the service’s app; the user leaving ends it with its recording', async () => {
    const m = await meeting();
    const user = await sandbox.client.addSimulatedUser(m.meeting_id, 'Alice Doe', alice.user_id);
    const token = await obfFor(alice, m.meeting_id);
    const botId = await bots.createBot(api, m.url, { vc_config: { obf_token: token } });
    await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording', 90_000);
    const inCall = (await botOf(m.meeting_id))!;
    assert.equal(inCall.authorized_by, alice.user_id);
    assert.equal(inCall.app_name, 'Meeting Bot Service', 'the service’s default SDK app signed the join');
    const spoken = await sandbox.client.speak(m.meeting_id, user.participant_id, 'The contract is signed');
    assert.ok(spoken.listeners.includes(inCall.participant_id), 'the bot’s page plays the meeting’s speech');
    await new Promise((r) => setTimeout(r, spoken.duration_seconds * 1000 + 300));
    await sandbox.client.simulatedLeave(m.meeting_id, user.participant_id);
    const done = await bots.waitForBot(api, botId, bots.hasEnded, 60_000);
    assert.equal(outcome(done), 'completed BOT_REMOVED', JSON.stringify(done));
    assert.equal((await botOf(m.meeting_id))!.end_reason, 'authorized_user_left');
    await bots.checkRecording(api, done);
    const botLog = done.artifacts.find((a: { artifact_type: string }) => a.artifact_type === 'bot_log');
    const logged = `${await (await fetch(botLog.url)).text()}${t.logText()}${JSON.stringify(done)}`;
    assert.ok(!logged.includes(token), 'the OBF token is in no log and no answer');
    assert.ok(!logged.includes(serviceApp.sdk_secret));
  });

  it('option 2, a token URL (legacy): while the user is absent the bot joins again every 2 s with a fresh token, and gets in once the user is there', async () => {
    const m = await meeting();
    tokens.answer = async (res, url) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(await obfFor(alice, m.meeting_id));
      assert.ok(url.searchParams.get('bot_uuid'));
    };
    const created = await api.post('/bots', { meeting_url: m.url, bot_name: 'Recorder Bot', recording_mode: 'audio_only', vc_obf_token_url: tokens.url('/obf'), extra: { deal: 1 } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const botId = created.body.bot_id as string;
    await bots.waitForBot(api, botId, (b) => b.status === 'in_waiting_room', 90_000);
    const asked = tokens.requests.length;
    await sandbox.client.waitFor(m.meeting_id, (v) => v.events.filter((e) => e.type === 'left' && e.detail === 'sdk join refused: 4017').length >= 2, 30_000, 'two refused joins');
    assert.ok(tokens.requests.length > asked, 'a fresh token for each join');
    await sandbox.client.addSimulatedUser(m.meeting_id, 'Alice Doe', alice.user_id);
    await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording', 30_000);
    assert.deepEqual(JSON.parse(tokens.requests.at(-1)!.searchParams.get('extra')!), { deal: 1 });
    assert.equal((await api.delete(`/bots/${botId}`)).status, 200);
    assert.equal(outcome(await bots.waitForBot(api, botId, bots.hasEnded, 60_000)), 'completed API_REQUEST');
  });

  it('the user never comes: WAITING_FOR_AUTHORIZED_USER_TIMEOUT at the waiting room timeout, nothing charged', async () => {
    /** the team's ledger once no reservation is open (every earlier bot settled) */
    const settledLedger = async () => {
      for (let i = 0; i < 300; i++) {
        const ledger = (await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data;
        if (ledger.reserved === 0) return ledger;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail('a reservation stayed open');
    };
    const before = await settledLedger();
    const m = await meeting();
    tokens.answer = async (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(await obfFor(alice, m.meeting_id));
    const botId = await bots.createBot(api, m.url, { vc_config: { obf_token_url: tokens.url('/obf') }, timeout_config: { waiting_room_timeout: 5 } });
    const done = await bots.waitForBot(api, botId, bots.hasEnded, 90_000);
    assert.equal(outcome(done), 'failed WAITING_FOR_AUTHORIZED_USER_TIMEOUT', JSON.stringify(done));
    assert.ok(done.status_history.some((s: { status: string }) => s.status === 'in_waiting_room'));
    assert.equal((await settledLedger()).balance, before.balance, 'the wait for the authorised user is not charged');
  });

  it('option 3, a stored OAuth connection on the Zoom replica: the service fetches a fresh OBF token, the connection’s app signs and is the banner', async () => {
    const code = platform.authorize(acmeApp.sdk_key, platform.addUser({ id: alice.user_id, account_id: HOST_ORG, email: 'alice@host.example', name: 'Alice Doe' }), REDIRECT);
    const connected = await api.post('/v2/vc-credentials', { type: 'oauth', authorization_code: code, redirect_uri: REDIRECT, client_id: acmeApp.sdk_key, client_secret: acmeApp.sdk_secret });
    assert.equal(connected.status, 201, JSON.stringify(connected.body));
    const m = await meeting({ replica: 'zoom' });
    assert.match(m.url, /^https:\/\/zoom\.us\/j\/\d+\?pwd=/);
    const user = await sandbox.client.addSimulatedUser(m.meeting_id, 'Alice Doe', alice.user_id);
    const botId = await bots.createBot(api, m.url, { vc_config: { credential_user_id: alice.user_id } });
    await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording', 90_000);
    const bot = (await botOf(m.meeting_id))!;
    assert.equal(bot.app_name, 'Acme Notetaker');
    assert.equal(bot.authorized_by, alice.user_id);
    assert.equal(platform.issuedObf.at(-1)!.request.meeting_number, m.meeting_id);
    await sandbox.client.simulatedLeave(m.meeting_id, user.participant_id);
    const done = await bots.waitForBot(api, botId, bots.hasEnded, 60_000);
    assert.equal(outcome(done), 'completed BOT_REMOVED', JSON.stringify(done));
  });

  it('ZAK: the bot starts a meeting whose host is absent', async () => {
    const m = await meeting({ host_present: false, lobby: true });
    tokens.answer = async (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end((await sandbox.client.issueVcToken({ type: 'zak', user_id: hank.user_id })).token);
    const botId = await bots.createBot(api, m.url, { vc_config: { zak_token_url: tokens.url('/zak') } });
    await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording', 90_000);
    const view = await sandbox.client.getMeeting(m.meeting_id);
    assert.equal(view.host_present, true, 'the meeting started');
    assert.ok(view.events.some((e) => e.type === 'host_started'));
    assert.equal(view.participants.find((p) => p.name === 'Recorder Bot')!.user_id, hank.user_id);
    await api.post(`/v2/bots/${botId}/leave`);
    assert.equal(outcome(await bots.waitForBot(api, botId, bots.hasEnded, 60_000)), 'completed API_REQUEST');
  });

  it('the team’s own SDK credentials sign its bots: the banner shows its app, not the service’s', async () => {
    const own = await sandbox.client.createVcApp({ name: 'Team Recorder', organisation: HOST_ORG });
    const stored = await api.post('/v2/vc-credentials', { type: 'sdk', sdk_id: own.sdk_key, sdk_secret: own.sdk_secret, name: 'our recorder' });
    assert.equal(stored.status, 201);
    try {
      const m = await meeting();
      const botId = await bots.createBot(api, m.url);
      await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording', 90_000);
      assert.equal((await botOf(m.meeting_id))!.app_name, 'Team Recorder', 'an app of the meeting’s organisation: no token needed');
      await api.post(`/v2/bots/${botId}/leave`);
      await bots.waitForBot(api, botId, bots.hasEnded, 60_000);
    } finally {
      await api.delete(`/v2/vc-credentials/${stored.body.data.credential_id}`);
    }
  });

  describe('the failures, each with its code', () => {
    const failsWith = async (body: Record<string, unknown>, code: string, message: RegExp, legacy = false) => {
      const m = await meeting();
      await sandbox.client.addSimulatedUser(m.meeting_id, 'Alice Doe', alice.user_id);
      const created = legacy
        ? await api.post('/bots', { meeting_url: m.url, bot_name: 'Recorder Bot', recording_mode: 'audio_only', ...body })
        : await api.post('/v2/bots', { meeting_url: m.url, bot_name: 'Recorder Bot', recording_mode: 'audio_only', ...body });
      const botId = legacy ? created.body.bot_id : created.body.data.bot_id;
      const done = await bots.waitForBot(api, botId, bots.hasEnded, 90_000);
      assert.equal(outcome(done), `failed ${code}`, JSON.stringify(done));
      assert.match(done.error_message, message);
      return done;
    };

    it('another organisation’s meeting without a token: UNABLE_JOIN_EXTERNAL_MEETING', () => failsWith({}, 'UNABLE_JOIN_EXTERNAL_MEETING', /Meeting SDK error 4012/));

    it('the caller’s own SDK credentials with a wrong secret: SDK_AUTH_FAILED', () =>
      failsWith({ vc_obf_token: 'x', vc_sdk_id: serviceApp.sdk_key, vc_sdk_pwd: 'not-the-secret' }, 'SDK_AUTH_FAILED', /Meeting SDK error 3712/, true));

    it('an OBF token the platform does not take: VC_OBF_TOKEN_ERROR', () => failsWith({ vc_config: { obf_token: 'not-a-token-of-the-platform' } }, 'VC_OBF_TOKEN_ERROR', /Meeting SDK error 4014/));

    it('a token URL answering an HTML page: VC_OBF_TOKEN_ERROR before the bot joins', async () => {
      tokens.answer = (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>sign in</html>');
      const done = await failsWith({ vc_config: { obf_token_url: tokens.url('/obf') } }, 'VC_OBF_TOKEN_ERROR', /answered an HTML page/);
      assert.ok(!done.status_history.some((s: { status: string }) => s.status === 'in_waiting_room'));
    });
  });
});
