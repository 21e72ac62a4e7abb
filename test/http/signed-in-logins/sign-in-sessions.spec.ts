import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';
import { SAML } from '@node-saml/node-saml';
import { eventually } from '../../support/eventually';
import { apiClient, createTeam, documentedFetch, MEETING, request } from '../../support/http-client';
import { ScriptedLauncher, type ScriptedLaunch } from '../../support/scripted-launcher';
import { startTestService, type TestService } from '../../support/test-service';

const TM_MEETING = 'https://tm.localhost:8443/l/meetup-join/room-2';

/** The bot's side of signing in, over the internal API with its own token. */
const signInOf = (launch: ScriptedLaunch) => {
  const auth = { authorization: `Bearer ${launch.botToken}` };
  const base = `${launch.serviceUrl}/internal/bots/${launch.job.bot_id}`;
  return {
    start: () => request(base, 'POST', '/sign-in', { headers: auth }),
    result: (body: unknown) => request(base, 'POST', '/sign-in/result', { body, headers: auth }),
    end: (error_code = 'API_REQUEST') =>
      request(base, 'POST', '/reports', { body: { kind: 'end', outcome: 'completed', error_code, error_message: 'done', recorded_seconds: 0, waiting_room_seconds: 0, at: new Date().toISOString() }, headers: auth }),
  };
};

describe('signed-in bots: sessions leased from pools, released on every end, failures and re-enabling', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;
  let workspaceId: string;

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 50, overrides: { launcher } });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 100 })).api_key);
    workspaceId = (await api.post('/v2/tm-workspaces', { domain: 'contoso.com' })).body.data.workspace_id;
  });
  after(() => t.stop());

  const login = async (email: string, email_group: string | null, password = `pw-of-${email}`) =>
    (await api.post('/v2/tm-logins', { email, email_group, name: email, password, workspace_id: workspaceId })).body.data.credential_id as string;
  const tmBot = async (tm_config: Record<string, unknown>) => {
    const created = await api.post('/v2/bots', { meeting_url: TM_MEETING, bot_name: 'Notetaker', tm_config });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const launch = await launcher.waitForLaunch(created.body.data.bot_id);
    assert.deepEqual(launch.job.sign_in, { platform: 'tm' });
    return { botId: created.body.data.bot_id as string, launch, signIn: signInOf(launch) };
  };
  const sessions = async (credentialId: string) => (await api.get(`/v2/tm-logins/${credentialId}`)).body.data.active_session_count as number;

  it('a pool hands out its least-loaded login; the password reaches only the bot that signs in', async () => {
    const a = await login('a@contoso.com', 'sales@contoso.com');
    const b = await login('b@contoso.com', 'sales@contoso.com');
    const first = await tmBot({ email_group: 'sales@contoso.com' });
    const one = await first.signIn.start();
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.outcome, 'sign_in');
    const firstLogin = one.body.credential_id;
    assert.ok([a, b].includes(firstLogin));
    assert.equal(one.body.password, `pw-of-${one.body.email}`);
    assert.equal((await first.signIn.start()).body.credential_id, firstLogin, 'asking again gives the session it holds');
    const second = await tmBot({ email_group: 'SALES@contoso.com' });
    const two = await second.signIn.start();
    assert.notEqual(two.body.credential_id, firstLogin, 'the other login had no session: it is the least loaded');
    assert.equal(await sessions(a), 1);
    assert.equal(await sessions(b), 1);

    const stranger = await request(`${first.launch.serviceUrl}/internal/bots/${first.botId}`, 'POST', '/sign-in', { headers: { authorization: `Bearer ${second.launch.botToken}` } });
    assert.equal(stranger.status, 401, 'a bot cannot sign in as another');

    const util = (await api.get('/v2/tm-logins/utilization')).body.data;
    const sales = util.by_email_group.find((g: { email_group: string }) => g.email_group === 'sales@contoso.com');
    assert.deepEqual(sales, { capacity: 4, concurrent: 2, email_group: 'sales@contoso.com', logins: 2 });

    await first.signIn.result({ ok: true });
    assert.notEqual((await api.get(`/v2/tm-logins/${firstLogin}`)).body.data.last_used_at, null);
    await first.signIn.end();
    await eventually(() => sessions(firstLogin), (n) => n === 0);
    second.launch.exit({ code: null, signal: 'SIGKILL' });
    await eventually(() => sessions(two.body.credential_id), (n) => n === 0);
    assert.equal((await first.signIn.start()).status, 409, 'an ended bot cannot sign in');
  });

  it('saturation: fallback fail ends with TM_LOGIN_UNAVAILABLE, anonymous joins as a guest', async () => {
    const only = await login('solo@contoso.com', 'solo@contoso.com');
    const holders = [await tmBot({ credential_id: only }), await tmBot({ credential_id: only })];
    for (const h of holders) assert.equal((await h.signIn.start()).body.outcome, 'sign_in');
    const failing = await tmBot({ credential_id: only });
    const fail = await failing.signIn.start();
    assert.equal(fail.body.outcome, 'fail');
    assert.equal(fail.body.error_code, 'TM_LOGIN_UNAVAILABLE');
    assert.match(fail.body.error_message, /in use/);
    const guest = await tmBot({ email_group: 'solo@contoso.com', fallback: 'anonymous' });
    assert.equal((await guest.signIn.start()).body.outcome, 'anonymous');
    const events = (await api.get(`/v2/bots/${guest.botId}/events`)).body.data.events;
    assert.ok(!events.some((e: { type: string }) => e.type === 'LoginSaturated'), 'the saturation is on the pool stream, not the bot’s');
    const none = await tmBot({ email_group: 'nobody@contoso.com' });
    assert.match((await none.signIn.start()).body.error_message, /No tm login matches/);
    for (const h of holders) await h.signIn.end();
  });

  it('a wrong password turns the login invalid (skipped by pools) until PATCH re-enables it', async () => {
    const credential = await login('wrong@contoso.com', 'wrong@contoso.com');
    const bot = await tmBot({ email_group: 'wrong@contoso.com' });
    assert.equal((await bot.signIn.start()).body.credential_id, credential);
    const failed = await bot.signIn.result({ ok: false, kind: 'wrong_password', message: 'Your account or password is incorrect.' });
    assert.equal(failed.body.error_code, 'TM_LOGIN_FAILED_WRONG_PASSWORD');
    const view = (await api.get(`/v2/tm-logins/${credential}`)).body.data;
    assert.equal(view.state, 'invalid');
    assert.equal(view.active_session_count, 0, 'the failed sign-in gave its session back');
    assert.equal(view.last_error_message, 'Your account or password is incorrect.');
    assert.deepEqual(view.failure_data, { code: 'TM_LOGIN_FAILED_WRONG_PASSWORD', reason: 'wrong_password', bot_id: bot.botId });
    assert.equal((await (await tmBot({ email_group: 'wrong@contoso.com' })).signIn.start()).body.outcome, 'fail', 'an invalid login is skipped');
    const util = (await api.get('/v2/tm-logins/utilization')).body.data;
    assert.ok(util.logins_invalid >= 1);
    const reenabled = await api.patch(`/v2/tm-logins/${credential}`, { state: 'active' });
    assert.equal(reenabled.body.data.state, 'active');
    assert.equal((await (await tmBot({ email_group: 'wrong@contoso.com' })).signIn.start()).body.outcome, 'sign_in');
  });

  it('a login in use is deleted once its last session ends', async () => {
    const credential = await login('leaving@contoso.com', null);
    const bot = await tmBot({ credential_id: credential });
    await bot.signIn.start();
    const asked = await api.delete(`/v2/tm-logins/${credential}`);
    assert.equal(asked.status, 202);
    assert.equal(asked.body.data.deleted, false);
    assert.equal((await (await tmBot({ credential_id: credential })).signIn.start()).body.outcome, 'fail', 'it takes no new session');
    await bot.signIn.end();
    await eventually(() => api.get(`/v2/tm-logins/${credential}`), (r) => r.status === 404);
  });

  describe('mt: our SAML identity provider gives an assertion only to the bot signing in', () => {
    let ws: { workspace_id: string; sso: { sign_in_page_url: string; certificate: string } };
    before(async () => {
      ws = (await api.post('/v2/mt-workspaces', { domain: 'example.com' })).body.data;
      await api.post('/v2/mt-logins', { email: 'bot@example.com', name: 'Bot', workspace_id: ws.workspace_id, email_group: 'mt@example.com' });
    });

    const google = (cert: string) =>
      new SAML({ entryPoint: ws.sso.sign_in_page_url, issuer: 'google.com', callbackUrl: 'https://www.google.com/a/example.com/acs', idpCert: cert, audience: 'google.com', wantAssertionsSigned: false, wantAuthnResponseSigned: true, disableRequestedAuthnContext: true });
    const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"') ?? null;

    it('HTTP-Redirect: the bot’s page, then its ticket buys one signed assertion Google verifies with the workspace certificate', async () => {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', mt_config: { email_group: 'mt@example.com' } });
      const launch = await launcher.waitForLaunch(created.body.data.bot_id);
      const answer = (await signInOf(launch).start()).body;
      assert.equal(answer.outcome, 'sign_in');
      assert.equal(answer.email, 'bot@example.com');
      const url = await google(ws.sso.certificate).getAuthorizeUrlAsync('https://meet.google.com/abc-defg-hij', undefined, {});
      const page = await documentedFetch(url);
      assert.equal(page.status, 200);
      const form = await page.text();
      assert.ok(form.includes('name="bot_credential"'));
      const post = (credential: string) =>
        documentedFetch(ws.sso.sign_in_page_url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ SAMLRequest: field(form, 'SAMLRequest')!, RelayState: field(form, 'RelayState')!, binding: 'redirect', bot_credential: credential }),
        });
      const wrong = await post(`${answer.sso_ticket}x`);
      assert.equal(wrong.status, 403);
      assert.match(await wrong.text(), /Only a meeting bot of this team, during its own run, can sign in here/);
      const signed = await post(answer.sso_ticket);
      assert.equal(signed.status, 200);
      const html = await signed.text();
      assert.ok(html.includes('action="https://www.google.com/a/example.com/acs"'));
      const verified = await google(ws.sso.certificate).validatePostResponseAsync({ SAMLResponse: field(html, 'SAMLResponse')!, RelayState: field(html, 'RelayState')! });
      assert.equal(verified.profile?.nameID, 'bot@example.com');
      assert.equal(field(html, 'RelayState'), 'https://meet.google.com/abc-defg-hij');
      assert.equal((await post(answer.sso_ticket)).status, 403, 'the ticket is good once');
      const other = (await api.post('/v2/mt-workspaces', { domain: 'example.com' })).body.data;
      await assert.rejects(google(other.sso.certificate).validatePostResponseAsync({ SAMLResponse: field(html, 'SAMLResponse')! }), /signature/i, 'another certificate does not verify it');
      await signInOf(launch).end();
    });

    it('HTTP-POST: Google posts its AuthnRequest; the bot’s form and the assertion work the same way', async () => {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', mt_config: {} });
      const launch = await launcher.waitForLaunch(created.body.data.bot_id);
      const answer = (await signInOf(launch).start()).body;
      const sp = new SAML({
        entryPoint: ws.sso.sign_in_page_url, issuer: 'google.com', callbackUrl: 'https://www.google.com/a/example.com/acs', idpCert: ws.sso.certificate,
        audience: 'google.com', wantAssertionsSigned: false, wantAuthnResponseSigned: true, disableRequestedAuthnContext: true, authnRequestBinding: 'HTTP-POST',
      });
      const googleForm = await sp.getAuthorizeFormAsync('https://meet.google.com/abc-defg-hij');
      // node-saml deflates its request in the POST binding too; the binding (SAML Bindings 3.5.4) sends the XML base64-encoded as it is
      const xml = inflateRawSync(Buffer.from(field(googleForm, 'SAMLRequest')!, 'base64'));
      const posted = await documentedFetch(ws.sso.sign_in_page_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLRequest: xml.toString('base64'), RelayState: field(googleForm, 'RelayState')! }),
      });
      assert.equal(posted.status, 200);
      const botForm = await posted.text();
      assert.equal(field(botForm, 'binding'), 'post');
      const signed = await documentedFetch(ws.sso.sign_in_page_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLRequest: field(botForm, 'SAMLRequest')!, RelayState: field(botForm, 'RelayState')!, binding: 'post', bot_credential: answer.sso_ticket }),
      });
      const html = await signed.text();
      assert.equal(signed.status, 200, html);
      assert.equal((await sp.validatePostResponseAsync({ SAMLResponse: field(html, 'SAMLResponse')! })).profile?.nameID, 'bot@example.com');
      await signInOf(launch).end();
    });

    it('refuses requests that are not Google’s for the domain, and tickets of ended bots', async () => {
      const foreign = new SAML({ entryPoint: ws.sso.sign_in_page_url, issuer: 'https://evil.example/sp', callbackUrl: 'https://evil.example/acs', idpCert: ws.sso.certificate, disableRequestedAuthnContext: true });
      const refused = await documentedFetch(await foreign.getAuthorizeUrlAsync('', undefined, {}));
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /not from Google for example.com/);
      assert.equal((await documentedFetch(`${ws.sso.sign_in_page_url}?SAMLRequest=garbage`)).status, 400);
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', mt_config: { email_group: 'mt@example.com' } });
      const launch = await launcher.waitForLaunch(created.body.data.bot_id);
      const ticket = (await signInOf(launch).start()).body.sso_ticket;
      await signInOf(launch).end();
      const form = await (await documentedFetch(await google(ws.sso.certificate).getAuthorizeUrlAsync('', undefined, {}))).text();
      const late = await documentedFetch(ws.sso.sign_in_page_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLRequest: field(form, 'SAMLRequest')!, binding: 'redirect', bot_credential: ticket }),
      });
      assert.equal(late.status, 403);
    });

    it('a rejected assertion turns the workspace invalid (MT_LOGIN_FAILED_SAML_REJECTED) until PATCH re-enables it', async () => {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', mt_config: { email_group: 'mt@example.com' } });
      const launch = await launcher.waitForLaunch(created.body.data.bot_id);
      await signInOf(launch).start();
      const failed = await signInOf(launch).result({ ok: false, kind: 'saml_rejected', message: 'Google rejected the SAML response' });
      assert.equal(failed.body.error_code, 'MT_LOGIN_FAILED_SAML_REJECTED');
      const view = (await api.get(`/v2/mt-workspaces/${ws.workspace_id}`)).body.data;
      assert.equal(view.state, 'invalid');
      assert.equal(view.failure_data.code, 'MT_LOGIN_FAILED_SAML_REJECTED');
      const next = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', mt_config: { email_group: 'mt@example.com' } });
      const answer = (await signInOf(await launcher.waitForLaunch(next.body.data.bot_id)).start()).body;
      assert.equal(answer.error_code, 'MT_LOGIN_UNAVAILABLE');
      assert.equal((await api.patch(`/v2/mt-workspaces/${ws.workspace_id}`, { state: 'active' })).body.data.state, 'active');
      assert.equal((await api.get('/v2/mt-logins/utilization')).body.data.logins_active, 1);
    });
  });
});
