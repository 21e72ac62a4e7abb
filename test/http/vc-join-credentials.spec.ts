import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type http from 'node:http';
import { vcJoinPath } from '../../contract/bot-contract';
import { defaultVcSettings, type VcSettings } from '../../src/capabilities/vc-settings';
import { FakeVcPlatform, type FakeVcUser } from '../fakes/fake-vc-platform';
import { apiClient, createTeam, request } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { TokenServer } from '../support/token-server';
import { WebhookReceiver } from '../support/webhook-receiver';

const ZOOM = 'https://zoom.us/j/1234567890?pwd=abcDEF.1';
const SERVICE_KEY = 'service-default-sdk-key';
const SERVICE_SECRET = 'service-default-sdk-secret-0001';
const CLIENT_ID = 'acme-general-app';
const CLIENT_SECRET = 'acme-client-secret-0002';
const REDIRECT = 'https://app.acme.example/cb';

/** The claims of an SDK signature, once its HS256 has been checked against the secret it should have. */
const verified = (jwt: string, secret: string): Record<string, unknown> => {
  const [head, body, mac] = jwt.split('.');
  assert.equal(createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url'), mac, 'signed with the expected app secret');
  assert.deepEqual(JSON.parse(Buffer.from(head!, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
  return JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
};

describe('vc join credentials: what the service gives a vc bot at each join (internal API)', () => {
  let platform: FakeVcPlatform;
  let tokens: TokenServer;
  let receiver: WebhookReceiver;
  let launcher: ScriptedLauncher;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let alice: FakeVcUser;
  let nowMs = Date.parse('2026-11-20T10:00:00.000Z');

  const settings = (): VcSettings => ({
    ...defaultVcSettings,
    platform: { oauthBaseUrl: platform.oauthBaseUrl, apiBaseUrl: platform.apiBaseUrl },
    defaultSdk: { sdk_key: SERVICE_KEY, sdk_secret: SERVICE_SECRET },
    tokenUrlTimeoutMs: 1000,
  });

  /** Creates a vc bot, waits for its launch, and asks for its join credentials as the bot would. */
  const joinOf = async (body: Record<string, unknown>, client = api, legacy = false) => {
    const created = legacy
      ? await client.post('/bots', { meeting_url: ZOOM, bot_name: 'Notetaker', ...body })
      : await client.post('/v2/bots', { meeting_url: ZOOM, bot_name: 'Notetaker', ...body });
    assert.ok(created.status === 201 || created.status === 200, JSON.stringify(created.body));
    const botId = legacy ? created.body.bot_id : created.body.data.bot_id;
    const launch = await launcher.waitForLaunch(botId);
    const ask = () => request(launch.serviceUrl, 'POST', vcJoinPath(botId), { headers: { authorization: `Bearer ${launch.botToken}` } });
    return { botId, launch, first: await ask(), ask };
  };

  before(async () => {
    platform = await new FakeVcPlatform(() => nowMs).start();
    platform.registerClient(CLIENT_ID, CLIENT_SECRET);
    alice = platform.addUser({ id: 'alice-vc-id', account_id: 'acct-acme', email: 'alice@acme.example', name: 'Alice Doe' });
    tokens = await new TokenServer().start();
    receiver = await new WebhookReceiver().start();
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 50, clock: () => new Date(nowMs), vc: settings(), overrides: { launcher, webhookDelivery: { pollMs: 20 } } });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 100 })).api_key);
  });
  after(async () => {
    await t?.stop();
    await tokens?.stop();
    await receiver?.stop();
    await platform?.stop();
  });

  it('given an OBF token in the request, the bot gets it with a signature of the service’s default app, in the documented claims', async () => {
    const { first } = await joinOf({ extra: { deal: 7 }, vc_config: { obf_token: 'direct-obf-token-0003' } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const { sdk, renewable, retry_seconds } = first.body;
    assert.equal(sdk.obf_token, 'direct-obf-token-0003');
    assert.equal(sdk.zak, null);
    assert.equal(sdk.meeting_number, '1234567890');
    assert.equal(sdk.passcode, 'abcDEF.1');
    assert.equal(sdk.role, 0);
    assert.equal(sdk.sdk_key, SERVICE_KEY);
    assert.equal(renewable, false, 'a token of the request cannot be renewed');
    assert.equal(retry_seconds, 30);
    const claims = verified(sdk.signature, SERVICE_SECRET);
    assert.equal(claims.appKey, SERVICE_KEY);
    assert.equal(claims.sdkKey, SERVICE_KEY);
    assert.equal(claims.mn, '1234567890');
    assert.equal(claims.role, 0);
    assert.equal((claims.exp as number) - (claims.iat as number), 1800, 'the shortest life the platform accepts');
    assert.equal(claims.tokenExp, claims.exp);
    assert.ok((claims.iat as number) <= nowMs / 1000 && (claims.exp as number) > nowMs / 1000);
    assert.ok(!JSON.stringify(first.body).includes(SERVICE_SECRET));
  });

  it('a request without a bot token, or with another bot’s, gets nothing', async () => {
    const a = await joinOf({ vc_config: { obf_token: 'token-of-a' } });
    const b = await joinOf({ vc_config: { obf_token: 'token-of-b' } });
    assert.equal((await request(t.url, 'POST', vcJoinPath(a.botId))).status, 401);
    const crossed = await request(t.url, 'POST', vcJoinPath(a.botId), { headers: { authorization: `Bearer ${b.launch.botToken}` } });
    assert.equal(crossed.status, 401);
  });

  describe('a token URL (spec: GET, bot_uuid and extra appended, plain text)', () => {
    it('answering plain text gives the token; the URL got the bot’s id and extra as JSON, on top of its own query', async () => {
      tokens.answer = (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('obf-from-url-0001\n');
      const { botId, first } = await joinOf({ extra: { deal: 7, who: 'me' }, vc_config: { obf_token_url: tokens.url('/obf?tenant=acme') } });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.sdk.obf_token, 'obf-from-url-0001');
      assert.equal(first.body.renewable, true);
      const got = tokens.requests.at(-1)!;
      assert.equal(got.pathname, '/obf');
      assert.equal(got.searchParams.get('tenant'), 'acme');
      assert.equal(got.searchParams.get('bot_uuid'), botId);
      assert.deepEqual(JSON.parse(got.searchParams.get('extra')!), { deal: 7, who: 'me' });
    });

    it('asked again (a retry), it is called again for a fresh token', async () => {
      let n = 0;
      tokens.answer = (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`fresh-${++n}`);
      const { first, ask } = await joinOf({ vc_config: { obf_token_url: tokens.url('/obf') } });
      const second = await ask();
      assert.deepEqual([first.body.sdk.obf_token, second.body.sdk.obf_token], ['fresh-1', 'fresh-2']);
    });

    const failures: [string, (res: http.ServerResponse) => void, RegExp][] = [
      ['an HTML page', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>login at 10.20.30.40</body></html>'), /answered an HTML page, not a token/],
      ['a 500', (res) => res.writeHead(500).end('boom'), /answered HTTP 500/],
      ['JSON', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"t"}'), /JSON body/],
      ['an empty body', (res) => res.writeHead(204).end(), /answered HTTP 204|empty body/],
      ['nothing in time', () => undefined, /no answer within 1 s/],
    ];
    for (const [what, answer, message] of failures) {
      it(`answering ${what} is VC_OBF_TOKEN_ERROR saying what came back, never repeating it`, async () => {
        tokens.answer = answer;
        const { first } = await joinOf({ vc_config: { obf_token_url: tokens.url('/obf') } });
        assert.equal(first.status, 422);
        assert.equal(first.body.error_code, 'VC_OBF_TOKEN_ERROR');
        assert.match(first.body.message, message);
        assert.doesNotMatch(first.body.message, /10\.20\.30\.40|127\.0\.0\.1/);
      });
    }

    it('a ZAK URL gives the ZAK and a host’s signature (role 1); failing, it is VC_ACCESS_TOKEN_ERROR', async () => {
      tokens.answer = (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('zak-token-0004');
      const { first } = await joinOf({ vc_config: { zak_token_url: tokens.url('/zak') } });
      assert.equal(first.body.sdk.zak, 'zak-token-0004');
      assert.equal(first.body.sdk.obf_token, null);
      assert.equal(first.body.sdk.role, 1);
      assert.equal(verified(first.body.sdk.signature, SERVICE_SECRET).role, 1);
      tokens.answer = (res) => res.writeHead(403).end();
      const failed = await joinOf({ vc_config: { zak_token_url: tokens.url('/zak') } });
      assert.equal(failed.first.status, 422);
      assert.equal(failed.first.body.error_code, 'VC_ACCESS_TOKEN_ERROR');
      assert.match(failed.first.body.message, /^The ZAK token URL answered HTTP 403/);
    });
  });

  describe('which app signs (its name is the platform’s banner)', () => {
    it('the team’s stored SDK credentials sign instead of the service’s; the bot’s own legacy ones win over both', async () => {
      const stored = await api.post('/v2/vc-credentials', { type: 'sdk', sdk_id: 'team-sdk-key', sdk_secret: 'team-sdk-secret-0005', name: 'Acme Notes' });
      assert.equal(stored.status, 201);
      const team = await joinOf({ vc_config: { obf_token: 't' } });
      assert.equal(team.first.body.sdk.sdk_key, 'team-sdk-key');
      verified(team.first.body.sdk.signature, 'team-sdk-secret-0005');
      const own = await joinOf({ vc_obf_token: 't', vc_sdk_id: 'own-sdk-key', vc_sdk_pwd: 'own-sdk-secret-0006' }, api, true);
      assert.equal(own.first.body.sdk.sdk_key, 'own-sdk-key');
      verified(own.first.body.sdk.signature, 'own-sdk-secret-0006');
      await api.delete(`/v2/vc-credentials/${stored.body.data.credential_id}`);
      assert.equal((await joinOf({ vc_config: { obf_token: 't' } })).first.body.sdk.sdk_key, SERVICE_KEY, 'deleted: the service’s again');
    });
  });

  describe('a stored OAuth connection (managed OAuth)', () => {
    let credentialId: string;

    it('at every join the service fetches a fresh OBF token of the user for this meeting, signed by the connection’s own app', async () => {
      const connected = await api.post('/v2/vc-credentials', { type: 'oauth', authorization_code: platform.authorize(CLIENT_ID, alice, REDIRECT), redirect_uri: REDIRECT, client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      credentialId = connected.body.data.credential_id;
      const { first, ask } = await joinOf({ vc_config: { credential_user_id: alice.id } });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const issued = platform.issuedObf.at(-1)!;
      assert.equal(first.body.sdk.obf_token, issued.token);
      assert.equal(issued.request.meeting_number, '1234567890');
      assert.equal(issued.request.user.id, alice.id);
      assert.equal(first.body.sdk.sdk_key, CLIENT_ID, 'the OBF token authorises the connection’s app, which signs');
      verified(first.body.sdk.signature, CLIENT_SECRET);
      const again = await ask();
      assert.notEqual(again.body.sdk.obf_token, first.body.sdk.obf_token, 'a fresh token at every join');
      const byId = await joinOf({ vc_config: { credential_id: credentialId } });
      assert.equal(byId.first.status, 200);
    });

    it('an expired access token is refreshed first (the refresh recorded, the rotated refresh token kept)', async () => {
      const grantsBefore = platform.calls.filter((c) => c === 'POST /oauth/token refresh_token').length;
      nowMs += 2 * 3600_000;
      const { first } = await joinOf({ vc_config: { credential_id: credentialId } });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(platform.calls.filter((c) => c === 'POST /oauth/token refresh_token').length, grantsBefore + 1);
      const events = (await t.service.eventStore.readStream(`vc-credential-${credentialId}`)).map((e) => e.type);
      assert.ok(events.includes('VcOAuthTokensRefreshed'));
      nowMs += 2 * 3600_000;
      assert.equal((await joinOf({ vc_config: { credential_id: credentialId } })).first.status, 200, 'the rotated refresh token works the next time');
    });

    it('a refresh the platform refuses turns the credential invalid with the reason, tells the team by webhook, and fails the join VC_OBF_TOKEN_ERROR', async () => {
      const endpoint = await api.post('/v2/webhooks', { url: receiver.url, events: ['vc_credential.invalid'] });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      platform.revoke(alice, CLIENT_ID);
      nowMs += 2 * 3600_000;
      const { first } = await joinOf({ vc_config: { credential_user_id: alice.id } });
      assert.equal(first.status, 422);
      assert.equal(first.body.error_code, 'VC_OBF_TOKEN_ERROR');
      assert.match(first.body.message, /could not be refreshed: the platform refused the refresh token \(HTTP 400: invalid_grant/);
      const read = (await api.get(`/v2/vc-credentials/${credentialId}`)).body.data;
      assert.equal(read.state, 'invalid');
      assert.match(read.last_error_message, /invalid_grant/);
      const [hook] = await receiver.waitFor((r) => r.some((w) => w.body.event === 'vc_credential.invalid'));
      const invalid = receiver.received.find((w) => w.body.event === 'vc_credential.invalid')!;
      assert.ok(hook);
      assert.deepEqual(
        { ...invalid.body.data, reason: 'x', invalidated_at: 'x' },
        { credential_id: credentialId, type: 'oauth', vc_user_id: alice.id, state: 'invalid', reason: 'x', invalidated_at: 'x' },
      );
      assert.ok(invalid.headers['x-service-api-key'], 'signed and sent with the key that stored the credential');
      const legacy = (await api.get('/vc_oauth_connections')).body.find((c: { uuid: string }) => c.uuid === credentialId);
      assert.equal(legacy.state, 'invalid');
      const stillInvalid = await joinOf({ vc_config: { credential_id: credentialId } });
      assert.match(stillInvalid.first.body.message, /is invalid since .*invalid_grant.*; the user must authorise the app again/);
    });

    it('re-authorising makes it active again, and joins work again', async () => {
      const again = await api.post('/vc_oauth_connections', { authorization_code: platform.authorize(CLIENT_ID, alice, REDIRECT), redirect_uri: REDIRECT, vc_client_id: CLIENT_ID, vc_client_secret: CLIENT_SECRET });
      assert.equal(again.status, 200);
      assert.equal(again.body.uuid, credentialId);
      assert.equal(again.body.state, 'connected');
      assert.equal((await api.get(`/v2/vc-credentials/${credentialId}`)).body.data.state, 'active');
      assert.equal((await joinOf({ vc_config: { credential_id: credentialId } })).first.status, 200);
    });

    it('a deleted connection gives no token any more (VC_OBF_TOKEN_ERROR), for a bot created before the deletion', async () => {
      const created = await api.post('/v2/bots', { meeting_url: ZOOM, bot_name: 'Late', vc_config: { credential_id: credentialId } });
      const launch = await launcher.waitForLaunch(created.body.data.bot_id);
      await api.delete(`/v2/vc-credentials/${credentialId}`);
      const asked = await request(launch.serviceUrl, 'POST', vcJoinPath(created.body.data.bot_id), { headers: { authorization: `Bearer ${launch.botToken}` } });
      assert.equal(asked.status, 422);
      assert.equal(asked.body.error_code, 'VC_OBF_TOKEN_ERROR');
      assert.match(asked.body.message, /does not exist/);
    });
  });

  describe('a service without default SDK credentials', () => {
    let bare: TestService;
    let bareApi: ReturnType<typeof apiClient>;
    before(async () => {
      bare = await startTestService({ botSlots: 5, vc: { ...settings(), defaultSdk: null }, overrides: { launcher } });
      bareApi = apiClient(bare.url, (await createTeam(bare.url)).api_key);
    });
    after(() => bare?.stop());

    it('a join with a token cannot be signed: CANNOT_GET_JWT_TOKEN; a plain join goes through the web client (no SDK)', async () => {
      const withToken = await joinOf({ vc_config: { obf_token: 't' } }, bareApi);
      assert.equal(withToken.first.status, 422);
      assert.equal(withToken.first.body.error_code, 'CANNOT_GET_JWT_TOKEN');
      const plain = await joinOf({}, bareApi);
      assert.equal(plain.first.status, 200);
      assert.equal(plain.first.body.sdk, null);
    });
  });

  describe('at creation: what can be known of a vc join before it', () => {
    it('a credential_id of another team, of SDK credentials, or unknown is a 400; so is a credential_user_id without a connection', async () => {
      const other = apiClient(t.url, (await createTeam(t.url)).api_key);
      const sdk = await other.post('/v2/vc-credentials', { type: 'sdk', sdk_id: 'other-key', sdk_secret: 'other-secret' });
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ credential_id: sdk.body.data.credential_id }, /^body\/vc_config\/credential_id names no vc credential of this team/],
        [{ credential_id: '5e0b5b0c-4c67-4a0e-9e1c-0a51f1d7a001' }, /^body\/vc_config\/credential_id names no vc credential of this team/],
        [{ credential_user_id: 'nobody' }, /^body\/vc_config\/credential_user_id names no vc OAuth connection of this team/],
      ];
      for (const [vc_config, message] of cases) {
        const refused = await api.post('/v2/bots', { meeting_url: ZOOM, bot_name: 'N', vc_config });
        assert.equal(refused.status, 400, JSON.stringify(vc_config));
        assert.match(refused.body.message, message);
      }
      const ownSdk = await other.post('/v2/bots', { meeting_url: ZOOM, bot_name: 'N', vc_config: { credential_id: sdk.body.data.credential_id } });
      assert.match(ownSdk.body.message, /names SDK credentials, not an OAuth connection/);
    });

    it('a scheduled bot’s OBF token survives a change of its other fields (sealed, never shown)', async () => {
      const scheduled = await api.post('/v2/bots/scheduled', { meeting_url: ZOOM, bot_name: 'Later', join_at: new Date(nowMs + 3600_000).toISOString(), vc_config: { obf_token: 'scheduled-obf-0007' } });
      assert.equal(scheduled.status, 201, JSON.stringify(scheduled.body));
      const botId = scheduled.body.data.bot_id;
      assert.equal((await api.patch(`/v2/bots/scheduled/${botId}`, { bot_name: 'Later still' })).status, 200);
      const events = (await api.get(`/v2/bots/${botId}/events`)).body.data.events;
      assert.deepEqual(events.at(-1).data.config.vc.obf, { kind: 'token', token: '[encrypted]' });
      assert.ok(!JSON.stringify(await api.get(`/v2/bots/scheduled/${botId}`)).includes('scheduled-obf-0007'));
      await api.delete(`/v2/bots/scheduled/${botId}`);
    });

    it('a legacy bot’s meeting_data shows its vc fields but never the token or the SDK password', async () => {
      const created = await api.post('/bots', { meeting_url: ZOOM, bot_name: 'N', vc_obf_token_url: tokens.url('/obf'), vc_sdk_id: 'own-key', vc_sdk_pwd: 'own-password-0008' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const data = (await api.get(`/bots/meeting_data?bot_id=${created.body.bot_id}`)).body.bot_data.bot;
      assert.equal(data.vc_obf_token_url, tokens.url('/obf'));
      assert.equal(data.vc_sdk_id, 'own-key');
      assert.equal(data.vc_sdk_pwd, null);
      assert.equal(data.vc_obf_token, null);
      assert.equal(data.waiting_room_timeout, 200, 'the legacy OBF default');
    });
  });

  describe('in production (NODE_ENV=production): token URLs go to public https addresses only, as webhooks do', () => {
    const addresses = new Map<string, string[]>([['tokens.customer.example', ['93.184.216.34']], ['metadata.internal', ['169.254.169.254']]]);
    const resolveHost = async (hostname: string) => {
      const found = addresses.get(hostname);
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: 4 }));
    };
    let prod: TestService;
    let prodApi: ReturnType<typeof apiClient>;
    before(async () => {
      prod = await startTestService({ botSlots: 5, allowPrivateWebhookTargets: false, vc: settings(), overrides: { launcher, resolveHost } });
      prodApi = apiClient(prod.url, (await createTeam(prod.url)).api_key);
    });
    after(() => prod?.stop());

    it('a token URL on a private address, or over plain http, is refused at creation (400 naming the field)', async () => {
      const privateUrl = await prodApi.post('/v2/bots', { meeting_url: ZOOM, bot_name: 'N', vc_config: { obf_token_url: 'https://metadata.internal/token' } });
      assert.equal(privateUrl.status, 400);
      assert.match(privateUrl.body.message, /^body\/vc_config\/obf_token_url resolves to 169\.254\.169\.254, which is not a public address/);
      const plain = await prodApi.post('/bots', { meeting_url: ZOOM, bot_name: 'N', vc_obf_token_url: tokens.url('/obf') });
      assert.equal(plain.status, 400);
      assert.match(plain.body.message, /^body\/vc_obf_token_url must be an https URL/);
    });

    it('a name public at creation that now resolves to a private address is not called at join time, and the message names no address', async () => {
      addresses.set('tokens.customer.example', ['93.184.216.34']);
      const created = await prodApi.post('/v2/bots', { meeting_url: ZOOM, bot_name: 'N', vc_config: { zak_token_url: 'https://tokens.customer.example/zak' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      addresses.set('tokens.customer.example', ['10.0.0.7']);
      const launch = await launcher.waitForLaunch(created.body.data.bot_id);
      const asked = await request(launch.serviceUrl, 'POST', vcJoinPath(created.body.data.bot_id), { headers: { authorization: `Bearer ${launch.botToken}` } });
      assert.equal(asked.status, 422);
      assert.equal(asked.body.error_code, 'VC_ACCESS_TOKEN_ERROR');
      assert.match(asked.body.message, /not a public address/);
      assert.doesNotMatch(asked.body.message, /10\.0\.0\.7/);
    });
  });

  describe('after all of the above', () => {
    it('no token, code, secret or signature in the service’s log or event log', async () => {
      const log = t.logText();
      const events = JSON.stringify((await t.service.eventStore.readAll({ maxCount: 100_000 })).map((e) => e.data));
      const secrets = [SERVICE_SECRET, CLIENT_SECRET, 'team-sdk-secret-0005', 'own-sdk-secret-0006', 'direct-obf-token-0003', 'obf-from-url-0001', 'zak-token-0004', ...platform.issuedObf.map((o) => o.token)];
      for (const secret of secrets) {
        assert.ok(!log.includes(secret), `the log shows ${secret.slice(0, 10)}…`);
        assert.ok(!events.includes(secret), `the event log shows ${secret.slice(0, 10)}…`);
      }
      assert.doesNotMatch(log, /eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\.[A-Za-z0-9_-]{20,}/, 'no SDK signature in the log');
    });
  });
});
