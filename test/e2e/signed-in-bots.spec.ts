/**
 * Signed-in bots end to end through the API, on the sandbox's replicas of Microsoft's and Google's
 * sign-in pages (the whole service, bot child processes, real Chromium under SANDBOX_REPLICAS): a tm bot
 * signs in with an organisation account of a pool and is admitted to an organisation-only meeting under
 * the account's name; the account refusals (wrong password, locked, MFA) turn the login invalid and the
 * bot joins as a guest; saturation with `fail`; an mt bot signs in through Google with our SAML identity
 * provider, and a certificate mismatch and an account the domain does not know fail with their codes. The
 * password is looked for everywhere afterwards: responses, log lines, event payloads, artifacts.
 */
import assert from 'node:assert/strict';
import * as bots from '../support/api-bots';
import { eventually } from '../support/eventually';
import { startSandboxAndService, type SandboxAndService } from '../support/sandbox-and-service';

const PASSWORDS = { good: 'Tr0ub4dor-signed-in!', wrong: 'not-the-password-123', locked: 'locked-pw-456', mfa: 'mfa-pw-789' };

describe('signed-in bots through the API on the sign-in replicas (service, bot processes, Chromium)', function () {
  this.timeout(240_000);
  let env: SandboxAndService;
  const responses: string[] = [];
  const api = () => ({
    post: async (path: string, body?: unknown) => {
      const r = await env.api.post(path, body);
      responses.push(JSON.stringify(r.body));
      return r;
    },
    get: async (path: string) => {
      const r = await env.api.get(path);
      responses.push(JSON.stringify(r.body));
      return r;
    },
    patch: async (path: string, body?: unknown) => {
      const r = await env.api.patch(path, body);
      responses.push(JSON.stringify(r.body));
      return r;
    },
  });
  const teamBots = () => bots.botsOf(env.api);
  let tmWorkspace: string;

  before(async () => {
    env = await startSandboxAndService(6);
    const client = env.sandbox.client;
    await client.putMicrosoftAccount({ email: 'notetaker@contoso.com', password: PASSWORDS.good, display_name: 'Contoso Notetaker' });
    await client.putMicrosoftAccount({ email: 'minutes@contoso.com', password: PASSWORDS.good, display_name: 'Contoso Minutes' });
    await client.putMicrosoftAccount({ email: 'typo@contoso.com', password: 'the-real-one', display_name: 'Typo' });
    await client.putMicrosoftAccount({ email: 'locked@contoso.com', password: PASSWORDS.locked, display_name: 'Locked', state: 'locked' });
    await client.putMicrosoftAccount({ email: 'mfa@contoso.com', password: PASSWORDS.mfa, display_name: 'Mfa', mfa: true });
    await client.putMicrosoftAccount({ email: 'solo@contoso.com', password: PASSWORDS.good, display_name: 'Contoso Solo' });
    tmWorkspace = (await api().post('/v2/tm-workspaces', { domain: 'contoso.com', name: 'Contoso' })).body.data.workspace_id;
  });
  after(() => env?.stop());

  const tmLogin = async (email: string, password: string, email_group: string | null) =>
    (await api().post('/v2/tm-logins', { email, password, name: email, email_group, workspace_id: tmWorkspace })).body.data.credential_id as string;
  const login = async (platform: 'tm' | 'mt', id: string) => (await api().get(`/v2/${platform}-logins/${id}`)).body.data;

  it('tm: a pool hands out its least-loaded login; each bot signs in on Microsoft’s pages and is admitted to an organisation-only meeting under its account’s name', async () => {
    const first = await tmLogin('notetaker@contoso.com', PASSWORDS.good, 'notetakers@contoso.com');
    const second = await tmLogin('minutes@contoso.com', PASSWORDS.good, 'notetakers@contoso.com');
    const meeting = await env.sandbox.client.createMeeting({ platform: 'tm', replica: 'teams', lobby: true, organisation_only: 'contoso.com' });
    const inLobby = (botId: string) => teamBots().waitFor(botId, (b) => b.status === 'in_waiting_room');
    const botA = await teamBots().create(meeting.url, { recording_mode: 'audio_only', tm_config: { email_group: 'notetakers@contoso.com' } });
    await inLobby(botA);
    // one login holds a session now: the pool gives the next bot the other one
    const botB = await teamBots().create(meeting.url, { recording_mode: 'audio_only', tm_config: { email_group: 'Notetakers@contoso.com' } });
    await inLobby(botB);
    assert.deepEqual([(await login('tm', first)).active_session_count, (await login('tm', second)).active_session_count], [1, 1]);
    const waiting = (await env.sandbox.client.getMeeting(meeting.meeting_id)).participants.filter((p) => p.state === 'lobby');
    assert.deepEqual(waiting.map((p) => [p.name, p.signed_in_as]).sort(), [['Contoso Minutes', 'minutes@contoso.com'], ['Contoso Notetaker', 'notetaker@contoso.com']]);
    const util = (await api().get('/v2/tm-logins/utilization')).body.data;
    assert.deepEqual(util.by_email_group.find((g: { email_group: string }) => g.email_group === 'notetakers@contoso.com'), { capacity: 4, concurrent: 2, email_group: 'notetakers@contoso.com', logins: 2 });
    await env.sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    for (const p of waiting) await env.sandbox.client.admit(meeting.meeting_id, p.participant_id);
    await Promise.all([botA, botB].map((id) => teamBots().waitFor(id, (b) => b.status === 'in_call_recording')));
    await env.sandbox.client.end(meeting.meeting_id);
    for (const id of [botA, botB]) assert.equal(bots.outcome(await teamBots().ended(id)), 'completed BOT_REMOVED');
    for (const id of [first, second]) {
      const after = await eventually(() => login('tm', id), (l) => l.active_session_count === 0);
      assert.notEqual(after.last_used_at, null);
    }
    const signIns = (await env.sandbox.client.identity()).sign_ins.filter((s) => s.email.endsWith('@contoso.com'));
    assert.deepEqual(signIns.map((s) => s.outcome), ['signed_in', 'signed_in']);
  });

  it('tm: a signed-in bot knows its own tile by its account’s name (read from Teams’ profile card), not by bot_name: alone in the call -> NO_ATTENDEES', async () => {
    await tmLogin('solo@contoso.com', PASSWORDS.good, 'solo@contoso.com');
    const meeting = await env.sandbox.client.createMeeting({ platform: 'tm', replica: 'teams', lobby: false, organisation_only: 'contoso.com' });
    const bot = await teamBots().create(meeting.url, { bot_name: 'Recorder Bot', recording_mode: 'audio_only', timeout_config: { no_one_joined_timeout: 2 }, tm_config: { email_group: 'solo@contoso.com' } });
    await teamBots().waitFor(bot, (b) => b.status === 'in_call_recording');
    const inCall = (await env.sandbox.client.getMeeting(meeting.meeting_id)).participants.filter((p) => p.state === 'in_call');
    assert.deepEqual(inCall.map((p) => [p.name, p.signed_in_as]), [['Contoso Solo', 'solo@contoso.com']], 'its tile carries the account’s name');
    // counting its own tile as an attendee, it would wait for ever
    assert.equal(bots.outcome(await teamBots().ended(bot)), 'completed NO_ATTENDEES');
  });

  it('tm: wrong password, locked account and MFA turn their logins invalid (each with its code) and the bots join as guests; PATCH re-enables; no login with room and fallback fail -> TM_LOGIN_UNAVAILABLE', async () => {
    const logins = {
      wrong_password: await tmLogin('typo@contoso.com', PASSWORDS.wrong, 'typo@contoso.com'),
      account_locked: await tmLogin('locked@contoso.com', PASSWORDS.locked, 'locked@contoso.com'),
      mfa_required: await tmLogin('mfa@contoso.com', PASSWORDS.mfa, 'mfa@contoso.com'),
    };
    const meeting = await env.sandbox.client.createMeeting({ platform: 'tm', replica: 'teams', lobby: false });
    await env.sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    const guests = await Promise.all(Object.keys(logins).map((group) => teamBots().create(meeting.url, { bot_name: `Guest ${group.split('_')[0]}`, tm_config: { email_group: `${group.split('_')[0] === 'wrong' ? 'typo' : group.split('_')[0] === 'account' ? 'locked' : 'mfa'}@contoso.com` } })));
    const unavailable = await teamBots().create(meeting.url, { tm_config: { email_group: 'nobody@contoso.com', fallback: 'fail' } });
    await Promise.all(guests.map((id) => teamBots().waitFor(id, (b) => b.status === 'in_call_recording')));
    const inCall = (await env.sandbox.client.getMeeting(meeting.meeting_id)).participants.filter((p) => p.kind === 'browser' && p.state === 'in_call');
    assert.deepEqual(inCall.map((p) => [p.name, p.signed_in_as]).sort(), [['Guest account', null], ['Guest mfa', null], ['Guest wrong', null]], 'each joined as a guest under its bot_name');
    const codes = { wrong_password: 'TM_LOGIN_FAILED_WRONG_PASSWORD', account_locked: 'TM_LOGIN_FAILED_ACCOUNT_LOCKED', mfa_required: 'TM_LOGIN_FAILED_MFA_REQUIRED' } as const;
    for (const [kind, id] of Object.entries(logins) as [keyof typeof codes, string][]) {
      const view = await login('tm', id);
      assert.equal(view.state, 'invalid', kind);
      assert.equal(view.failure_data.code, codes[kind]);
      assert.equal(view.failure_data.reason, kind);
      assert.equal(view.active_session_count, 0);
      assert.ok(view.last_error_at && view.last_error_message, JSON.stringify(view));
      assert.equal((await api().patch(`/v2/tm-logins/${id}`, { state: 'active' })).body.data.state, 'active', `${kind} re-enabled`);
    }
    const failed = await teamBots().ended(unavailable);
    assert.equal(bots.outcome(failed), 'failed TM_LOGIN_UNAVAILABLE');
    assert.match(failed.error_message, /No tm login matches/);
    await env.sandbox.client.end(meeting.meeting_id);
    await Promise.all(guests.map((id) => teamBots().ended(id)));
  });

  it('mt: Google sends the account to our SAML identity provider and the bot joins an organisation-only meeting signed in; a certificate mismatch and an account Google does not know fail with their codes', async () => {
    const client = env.sandbox.client;
    const example = (await api().post('/v2/mt-workspaces', { domain: 'example.com' })).body.data;
    const mismatch = (await api().post('/v2/mt-workspaces', { domain: 'mismatch.com' })).body.data;
    // what the customer enters in Google Workspace: the sign-in page URL and the certificate of the workspace
    await client.putGoogleDomain('example.com', { sign_in_url: example.sso.sign_in_page_url, certificate: example.sso.certificate });
    // a profile with the wrong certificate (another workspace's)
    await client.putGoogleDomain('mismatch.com', { sign_in_url: mismatch.sso.sign_in_page_url, certificate: example.sso.certificate });
    await client.putGoogleAccount({ email: 'notetaker@example.com', display_name: 'Example Notetaker' });
    await client.putGoogleAccount({ email: 'notetaker@mismatch.com', display_name: 'Mismatch Notetaker' });
    const good = (await api().post('/v2/mt-logins', { email: 'notetaker@example.com', name: 'Notetaker', workspace_id: example.workspace_id, email_group: 'meet@example.com' })).body.data.credential_id;
    const ghost = (await api().post('/v2/mt-logins', { email: 'ghost@example.com', name: 'Ghost', workspace_id: example.workspace_id })).body.data.credential_id;
    await api().post('/v2/mt-logins', { email: 'notetaker@mismatch.com', name: 'Mismatch', workspace_id: mismatch.workspace_id, email_group: 'meet@mismatch.com' });

    const meeting = await client.createMeeting({ platform: 'mt', replica: 'meet', lobby: false, organisation_only: 'example.com' });
    await client.addSimulated(meeting.meeting_id, 'Bob');
    const signedIn = await teamBots().create(meeting.url, { mt_config: { email_group: 'meet@example.com' } });
    const rejected = await teamBots().create(meeting.url, { mt_config: { email_group: 'meet@mismatch.com' } });
    const unknown = await teamBots().create(meeting.url, { mt_config: { credential_id: ghost } });
    await teamBots().waitFor(signedIn, (b) => b.status === 'in_call_recording');
    const bot = (await client.getMeeting(meeting.meeting_id)).participants.find((p) => p.kind === 'browser' && p.state === 'in_call');
    assert.deepEqual([bot?.name, bot?.signed_in_as], ['Example Notetaker', 'notetaker@example.com']);
    const [r, u] = [await teamBots().ended(rejected), await teamBots().ended(unknown)];
    assert.equal(bots.outcome(r), 'failed MT_LOGIN_FAILED_SAML_REJECTED', JSON.stringify(r));
    assert.equal(bots.outcome(u), 'failed MT_LOGIN_FAILED_TIMEOUT', JSON.stringify(u));
    const mismatchView = (await api().get(`/v2/mt-workspaces/${mismatch.workspace_id}`)).body.data;
    assert.equal(mismatchView.state, 'invalid');
    assert.equal(mismatchView.failure_data.code, 'MT_LOGIN_FAILED_SAML_REJECTED');
    const ghostView = await login('mt', ghost);
    assert.equal(ghostView.state, 'invalid');
    assert.equal(ghostView.failure_data.reason, 'account_not_found');
    assert.equal((await api().patch(`/v2/mt-workspaces/${mismatch.workspace_id}`, { state: 'active' })).body.data.state, 'active');
    assert.equal((await api().patch(`/v2/mt-logins/${ghost}`, { state: 'active' })).body.data.state, 'active');
    await client.end(meeting.meeting_id);
    assert.equal(bots.outcome(await teamBots().ended(signedIn)), 'completed BOT_REMOVED');
    assert.equal((await eventually(() => login('mt', good), (l) => l.active_session_count === 0)).state, 'active');
    const outcomes = (await client.identity()).sign_ins.filter((s) => s.platform === 'mt').map((s) => s.outcome).sort();
    assert.deepEqual(outcomes, ['saml_rejected', 'signed_in', 'unknown_account']);
  });

  it('no password appears in any response, service log line, event payload or artifact', async () => {
    const secrets = Object.values(PASSWORDS);
    const haystacks: [string, string][] = responses.map((r, i) => [`response ${i}`, r]);
    haystacks.push(['service log', env.t.logText()]);
    for (const event of await env.t.service.eventStore.readAll()) haystacks.push([`event ${event.type} of ${event.streamName}`, JSON.stringify(event.data)]);
    const list = (await env.api.get('/v2/bots?limit=100')).body.data.bots as { bot_id: string }[];
    assert.ok(list.length >= 9, `the bots of this file: ${list.length}`);
    let artifacts = 0;
    for (const { bot_id } of list) {
      const details = (await env.api.get(`/v2/bots/${bot_id}`)).body.data;
      haystacks.push([`bot ${bot_id}`, JSON.stringify(details)]);
      for (const artifact of details.artifacts as { artifact_type: string; key: string; url: string }[]) {
        const bytes = Buffer.from(await (await fetch(artifact.url)).arrayBuffer());
        haystacks.push([`artifact ${artifact.artifact_type} ${artifact.key} of ${bot_id}`, bytes.toString('latin1')]);
        artifacts += 1;
      }
    }
    assert.ok(artifacts > 0 && haystacks.some(([what]) => what.startsWith('artifact') && what.includes('bot_log')), 'the bots\' own logs are among what was searched');
    for (const [what, text] of haystacks) for (const secret of secrets) assert.ok(!text.includes(secret), `a password in ${what}`);
    assert.ok(haystacks.some(([, text]) => text.includes('TM_LOGIN_FAILED_WRONG_PASSWORD')), 'the search reads what the runs wrote');
  });
});
