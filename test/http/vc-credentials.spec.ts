import assert from 'node:assert/strict';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import { defaultVcSettings } from '../../src/capabilities/vc-settings';
import { FakeVcPlatform, type FakeVcUser } from '../fakes/fake-vc-platform';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const CLIENT_ID = 'acme-oauth-app';
const CLIENT_SECRET = 'client-secret-never-shown-0001';
const REDIRECT = 'https://app.acme.example/vc/callback';
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/;

describe('vc credentials through the API (managed OAuth connections and SDK credentials)', () => {
  let platform: FakeVcPlatform;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let other: ReturnType<typeof apiClient>;
  let alice: FakeVcUser;
  let bob: FakeVcUser;
  /** every response body of this file, searched for secrets at the end */
  const seen: unknown[] = [];
  const codesGiven: string[] = [];

  const code = (user: FakeVcUser, redirect = REDIRECT) => {
    const c = platform.authorize(CLIENT_ID, user, redirect);
    codesGiven.push(c);
    return c;
  };
  const track = async <R extends { body: unknown }>(response: Promise<R>): Promise<R> => {
    const r = await response;
    seen.push(r.body);
    return r;
  };

  before(async () => {
    platform = await new FakeVcPlatform().start();
    platform.registerClient(CLIENT_ID, CLIENT_SECRET);
    alice = platform.addUser({ id: 'KdYKjnimT4KPd8KKdQt9FQ', account_id: 'acct-acme', email: 'alice@acme.example', name: 'Alice Doe' });
    bob = platform.addUser({ id: 'z8yAAAAA8bbbQ', account_id: 'acct-acme', email: 'bob@acme.example', name: 'Bob Roe' });
    t = await startTestService({ vc: { ...defaultVcSettings, platform: { oauthBaseUrl: platform.oauthBaseUrl, apiBaseUrl: platform.apiBaseUrl } } });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
    other = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(async () => {
    await t?.stop();
    await platform?.stop();
  });

  describe('legacy /vc_oauth_connections (the spec)', () => {
    let uuid: string;

    it('POST exchanges the authorization code with the customer’s client and answers the connection, times without zone', async () => {
      const r = await track(api.post('/vc_oauth_connections', { authorization_code: code(alice), redirect_uri: REDIRECT, vc_client_id: CLIENT_ID, vc_client_secret: CLIENT_SECRET }));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body).sort(), ['created_at', 'scopes', 'state', 'updated_at', 'uuid', 'vc_account_id', 'vc_user_id']);
      assert.equal(r.body.vc_user_id, alice.id);
      assert.equal(r.body.vc_account_id, 'acct-acme');
      assert.equal(r.body.state, 'connected');
      assert.match(r.body.scopes, /user:read:token/);
      assert.match(r.body.created_at, NO_ZONE);
      assert.match(r.body.updated_at, NO_ZONE);
      assert.deepEqual(platform.calls.slice(0, 2), ['POST /oauth/token authorization_code', 'GET /v2/users/me']);
      uuid = r.body.uuid;
    });

    it('GET lists the team’s connections and GET /:uuid reads one; another team sees none of them', async () => {
      const list = await track(api.get('/vc_oauth_connections'));
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.map((c: { uuid: string }) => c.uuid), [uuid]);
      const one = await track(api.get(`/vc_oauth_connections/${uuid}`));
      assert.equal(one.body.vc_user_id, alice.id);
      assert.deepEqual((await other.get('/vc_oauth_connections')).body, []);
      const foreign = await other.get(`/vc_oauth_connections/${uuid}`);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.code, 'FST_ERR_VC_CREDENTIAL_NOT_FOUND');
    });

    it('the same vc user authorising again re-authorises the same connection', async () => {
      const again = await track(api.post('/vc_oauth_connections', { authorization_code: code(alice), redirect_uri: REDIRECT, vc_client_id: CLIENT_ID, vc_client_secret: CLIENT_SECRET }));
      assert.equal(again.status, 200);
      assert.equal(again.body.uuid, uuid);
      assert.equal((await api.get('/vc_oauth_connections')).body.length, 1);
    });

    it('a code the platform refuses is a 400 naming authorization_code, a wrong client secret one naming the client; nothing is stored', async () => {
      const used = codesGiven[0]!;
      const reused = await track(api.post('/vc_oauth_connections', { authorization_code: used, redirect_uri: REDIRECT, vc_client_id: CLIENT_ID, vc_client_secret: CLIENT_SECRET }));
      assert.equal(reused.status, 400);
      assert.equal(reused.body.code, 'FST_ERR_VC_OAUTH_REFUSED');
      assert.match(reused.body.details, /^body\/authorization_code was refused by the vc platform/);
      const wrongRedirect = await track(api.post('/vc_oauth_connections', { authorization_code: code(bob), redirect_uri: 'https://elsewhere.example/cb', vc_client_id: CLIENT_ID, vc_client_secret: CLIENT_SECRET }));
      assert.equal(wrongRedirect.status, 400);
      const badSecret = await track(api.post('/vc_oauth_connections', { authorization_code: code(bob), redirect_uri: REDIRECT, vc_client_id: CLIENT_ID, vc_client_secret: 'wrong-secret' }));
      assert.equal(badSecret.status, 400);
      assert.match(badSecret.body.details, /vc_client_id or body\/vc_client_secret/);
      assert.equal((await api.get('/vc_oauth_connections')).body.length, 1, 'bob was never connected');
    });

    it('a request without a field is a 400 naming it; an unknown field too', async () => {
      const missing = await api.post('/vc_oauth_connections', { authorization_code: 'x', redirect_uri: REDIRECT, vc_client_id: CLIENT_ID });
      assert.equal(missing.status, 400);
      assert.match(missing.body.message, /vc_client_secret/);
      const extra = await api.post('/vc_oauth_connections', { authorization_code: 'x', redirect_uri: REDIRECT, vc_client_id: CLIENT_ID, vc_client_secret: 's', scope: 'all' });
      assert.equal(extra.status, 400);
      assert.match(extra.body.message, /body\/scope is not an allowed property/);
    });

    it('DELETE removes the connection and its tokens: not found afterwards, and its key destroyed', async () => {
      const removed = await track(api.delete(`/vc_oauth_connections/${uuid}`));
      assert.deepEqual(removed.body, { ok: true });
      assert.equal((await api.get(`/vc_oauth_connections/${uuid}`)).status, 404);
      assert.equal((await api.delete(`/vc_oauth_connections/${uuid}`)).status, 404);
      assert.deepEqual((await api.get('/vc_oauth_connections')).body, []);
      const connected = (await t.service.eventStore.readStream(`vc-credential-${uuid}`)).find((e) => e.type === 'VcOAuthCredentialConnected')!;
      const keyId = connected.data.key_id as string;
      assert.equal((await t.service.keyVault.lookup(keyId)).state, 'destroyed', 'the tokens in the log can no longer be opened');
      assert.equal(await t.service.keyVault.keyToSeal(keyId), null, 'and nothing is sealed with that key again');
    });

    it('a Sending Access key may not use it (403)', async () => {
      const team = await createTeam(t.url);
      const issued = await adminClient(t.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'sending' });
      const sending = apiClient(t.url, issued.body.data.api_key);
      assert.equal((await sending.post('/vc_oauth_connections', {})).status, 403);
      assert.equal((await sending.get('/v2/vc-credentials')).status, 403);
    });
  });

  describe('/v2/vc-credentials', () => {
    let oauthId: string;
    let sdkId: string;

    it('POST type oauth connects a vc user (201), and again re-authorises it (200, same id, active)', async () => {
      const body = () => ({ type: 'oauth', authorization_code: code(bob), redirect_uri: REDIRECT, client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
      const created = await track(api.post('/v2/vc-credentials', body()));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.success, true);
      const c = created.body.data;
      assert.equal(c.type, 'oauth');
      assert.equal(c.state, 'active');
      assert.equal(c.vc_user_id, bob.id);
      assert.equal(c.client_id, CLIENT_ID);
      assert.deepEqual([c.credential_type, c.name], ['user', bob.id], "the official client's type, its name the vc user it connects");
      assert.equal(c.last_error_message, null);
      oauthId = c.credential_id;
      const again = await track(api.post('/v2/vc-credentials', body()));
      assert.equal(again.status, 200);
      assert.equal(again.body.data.credential_id, oauthId);
    });

    it('POST type sdk stores the team’s SDK credentials (201), again replaces them (200); the secret is never shown', async () => {
      const created = await track(api.post('/v2/vc-credentials', { type: 'sdk', sdk_id: 'acme-sdk-key', sdk_secret: 'sdk-secret-never-shown-0002', name: 'Acme Notes' }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(
        { ...created.body.data, credential_id: 'x', created_at: 'x', updated_at: 'x' },
        {
          credential_id: 'x', type: 'sdk', credential_type: 'app', name: 'Acme Notes', state: 'active', vc_user_id: null, vc_account_id: null, scopes: null,
          sdk_id: 'acme-sdk-key', last_error_at: null, last_error_message: null, created_at: 'x', updated_at: 'x',
        },
      );
      sdkId = created.body.data.credential_id;
      const replaced = await track(api.post('/v2/vc-credentials', { type: 'sdk', sdk_id: 'acme-sdk-key-2', sdk_secret: 'sdk-secret-never-shown-0003' }));
      assert.equal(replaced.status, 200);
      assert.equal(replaced.body.data.credential_id, sdkId);
      assert.equal(replaced.body.data.sdk_id, 'acme-sdk-key-2');
      assert.equal(replaced.body.data.name, 'acme-sdk-key-2', 'no name given: the SDK key names it');
    });

    it('GET lists both and GET /{id} reads one with its state; an unknown type or field is a 400', async () => {
      const list = await track(api.get('/v2/vc-credentials'));
      assert.deepEqual(list.body.data.credentials.map((c: { credential_id: string }) => c.credential_id).sort(), [oauthId, sdkId].sort());
      const one = await track(api.get(`/v2/vc-credentials/${oauthId}`));
      assert.equal(one.body.data.state, 'active');
      assert.equal((await other.get(`/v2/vc-credentials/${oauthId}`)).status, 404);
      const badType = await api.post('/v2/vc-credentials', { type: 'zak' });
      assert.equal(badType.status, 400);
      assert.match(badType.body.message, /^body\/type/);
      assert.equal((await api.post('/v2/vc-credentials', { type: 'sdk', sdk_id: 'k' })).status, 400);
      assert.equal((await api.get('/v2/vc-credentials/not-a-uuid')).status, 400);
    });

    it('DELETE deletes one; it is gone from reads and lists', async () => {
      const removed = await track(api.delete(`/v2/vc-credentials/${sdkId}`));
      assert.equal(removed.status, 200);
      assert.equal(removed.body.data.deleted, true);
      assert.equal((await api.get(`/v2/vc-credentials/${sdkId}`)).status, 404);
      assert.deepEqual((await api.get('/v2/vc-credentials')).body.data.credentials.map((c: { credential_id: string }) => c.credential_id), [oauthId]);
    });
  });

  describe('after all of the above', () => {
    it('nothing secret in any response, in the event log or in the service’s log: client secret, SDK secrets, codes, access and refresh tokens', async () => {
      const log = t.logText();
      const events = JSON.stringify((await t.service.eventStore.readAll({ maxCount: 100_000 })).map((e) => e.data));
      const responses = JSON.stringify(seen);
      const tokens = [...platform.oauth['accessTokens'].keys(), ...platform.oauth['refreshTokens'].keys()] as string[];
      assert.ok(tokens.length >= 4, 'the platform issued tokens');
      for (const secret of [CLIENT_SECRET, 'sdk-secret-never-shown-0002', 'sdk-secret-never-shown-0003', ...codesGiven, ...tokens]) {
        assert.ok(!log.includes(secret), `the log shows ${secret.slice(0, 12)}…`);
        assert.ok(!events.includes(secret), `the event log shows ${secret.slice(0, 12)}…`);
        assert.ok(!responses.includes(secret), `a response shows ${secret.slice(0, 12)}…`);
      }
    });
  });
});
