import assert from 'node:assert/strict';
import { CredentialSealer, KeyDestroyedError } from '../../../src/adapters/key-vault/credential-sealer';
import { openKeyVault } from '../../../src/adapters/key-vault';
import type { Sealed } from '../../../src/domain/codec-helpers';
import { adminClient, apiClient, createTeam, documentedFetch, MEETING } from '../../support/http-client';
import { startTestService, type TestService } from '../../support/test-service';

const LOGIN_FIELDS = [
  'active_session_count', 'created_at', 'credential_id', 'email', 'email_group', 'extra', 'failure_data', 'last_error_at',
  'last_error_message', 'last_used_at', 'name', 'state', 'updated_at', 'workspace_id',
];
const WORKSPACE_FIELDS = ['created_at', 'domain', 'extra', 'failure_data', 'last_error_at', 'last_error_message', 'name', 'state', 'updated_at', 'workspace_id'];
const TM_MEETING = 'https://tm.localhost:8443/l/meetup-join/room-1';

describe('tm and mt workspaces and logins through the API', () => {
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let other: ReturnType<typeof apiClient>;
  let sending: ReturnType<typeof apiClient>;

  before(async () => {
    t = await startTestService();
    const team = await createTeam(t.url, { tokens: 10 });
    api = apiClient(t.url, team.api_key);
    other = apiClient(t.url, (await createTeam(t.url)).api_key);
    const issued = await adminClient(t.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'sending' });
    sending = apiClient(t.url, issued.body.data.api_key);
  });
  after(() => t.stop());

  const tmWorkspace = async (body: Record<string, unknown> = {}) => {
    const created = await api.post('/v2/tm-workspaces', { domain: 'contoso.com', ...body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.data;
  };
  const tmLogin = async (workspaceId: string, body: Record<string, unknown> = {}) => {
    const created = await api.post('/v2/tm-logins', { email: 'bot@contoso.com', name: 'Notetaker', password: 'S3cret-pass!', workspace_id: workspaceId, ...body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.data;
  };

  /** Opens a secret the log holds with the service's key vault, as someone with a copy of both would. */
  const openFromTheLog = async (keyId: string, sealed: Sealed): Promise<string> => {
    const vault = await openKeyVault({ dataDir: t.dataDir, mongoDatabase: 'unused' }, t.secretBox);
    try {
      return await new CredentialSealer(vault).open(keyId, sealed);
    } finally {
      await vault.close();
    }
  };
  const eventsOf = async (stream: string) => t.service.eventStore.readStream(stream);

  it('POST /v2/tm-workspaces answers the spec’s fields, with the default name', async () => {
    const ws = await tmWorkspace({ extra: { env: 'prod' } });
    assert.deepEqual(Object.keys(ws).sort(), WORKSPACE_FIELDS);
    assert.equal(ws.domain, 'contoso.com');
    assert.equal(ws.state, 'active');
    assert.equal(ws.name, 'Default Directory');
    assert.deepEqual(ws.extra, { env: 'prod' });
    assert.equal(ws.failure_data, null);
    assert.equal((await api.get(`/v2/tm-workspaces/${ws.workspace_id}`)).body.data.workspace_id, ws.workspace_id);
  });

  it('refuses a domain that breaks the spec’s rule, and names longer than 100', async () => {
    for (const domain of ['Contoso.com', 'contoso', 'contoso.c', 'contoso.com.', 'con_toso.com', '', `${'a'.repeat(250)}.com`]) {
      const refused = await api.post('/v2/tm-workspaces', { domain });
      assert.equal(refused.status, 400, domain);
      assert.match(refused.body.message, /^body\/domain /);
    }
    assert.equal((await api.post('/v2/tm-workspaces', { domain: 'a-b.example.co.uk' })).status, 201);
    assert.match((await api.post('/v2/tm-workspaces', { domain: 'contoso.com', name: 'x'.repeat(101) })).body.message, /^body\/name /);
    assert.match((await api.post('/v2/tm-workspaces', { domain: 'contoso.com', color: 'red' })).body.message, /^body\/color is not an allowed property/);
  });

  it('POST /v2/tm-logins: the spec’s fields, the password never returned; the workspace must exist', async () => {
    const ws = await tmWorkspace();
    const login = await tmLogin(ws.workspace_id, { email_group: 'Pool@Contoso.com' });
    assert.deepEqual(Object.keys(login).sort(), LOGIN_FIELDS);
    assert.equal(login.active_session_count, 0);
    assert.equal(login.state, 'active');
    assert.equal(login.email_group, 'pool@contoso.com');
    assert.equal(login.last_used_at, null);
    assert.ok(!JSON.stringify(login).includes('S3cret-pass!'));
    const missing = await api.post('/v2/tm-logins', { email: 'bot@contoso.com', name: 'N', password: 'p', workspace_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'FST_ERR_WORKSPACE_NOT_FOUND');
  });

  it('applies every field rule of a tm login', async () => {
    const ws = await tmWorkspace();
    const base = { email: 'bot@contoso.com', name: 'N', password: 'p', workspace_id: ws.workspace_id };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, email: 'not-an-email' }, /^body\/email /],
      [{ ...base, email: `${'a'.repeat(250)}@x.com` }, /^body\/email /],
      [{ ...base, email_group: 'nope' }, /^body\/email_group /],
      [{ ...base, name: '' }, /^body\/name /],
      [{ ...base, name: 'n'.repeat(101) }, /^body\/name /],
      [{ ...base, password: '' }, /^body\/password /],
      [{ ...base, password: 'p'.repeat(1025) }, /^body\/password /],
      [{ ...base, workspace_id: 'abc' }, /^body\/workspace_id /],
      [{ email: 'bot@contoso.com', name: 'N', workspace_id: ws.workspace_id }, /^body\/password is required/],
      [{ ...base, extra: 'x' }, /^body\/extra /],
    ];
    for (const [body, message] of cases) {
      const refused = await api.post('/v2/tm-logins', body);
      assert.equal(refused.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(refused.body.message, message);
    }
    assert.equal((await api.post('/v2/tm-logins', { ...base, password: 'p'.repeat(1024), name: 'n'.repeat(100) })).status, 201);
  });

  it('lists, renames, regroups, changes the password (never shown) and deletes a login', async () => {
    const ws = await tmWorkspace();
    const login = await tmLogin(ws.workspace_id);
    const listed = (await api.get('/v2/tm-logins')).body.data.logins;
    assert.ok(listed.some((l: { credential_id: string }) => l.credential_id === login.credential_id));
    const patched = await api.patch(`/v2/tm-logins/${login.credential_id}`, { name: 'Renamed', email_group: 'g@contoso.com', password: 'N3w-pass!' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.data.name, 'Renamed');
    assert.equal(patched.body.data.email_group, 'g@contoso.com');
    assert.ok(!JSON.stringify(patched.body).includes('N3w-pass!'));
    assert.equal((await api.patch(`/v2/tm-logins/${login.credential_id}`, { email_group: null })).body.data.email_group, null);
    assert.equal((await api.patch(`/v2/tm-logins/${login.credential_id}`, {})).status, 400, 'a PATCH that changes nothing is refused');
    assert.equal((await api.patch(`/v2/tm-logins/${login.credential_id}`, { state: 'invalid' })).status, 400, 'only re-enabling is asked for');
    const stream = `tm-login-${login.credential_id}`;
    const changed = (await eventsOf(stream)).find((e) => e.type === 'LoginPasswordChanged')!;
    const keyId = `tm-login-${login.credential_id}`;
    assert.equal(await openFromTheLog(keyId, changed.data.password as Sealed), 'N3w-pass!', 'sealed with the login’s own key from the vault');
    assert.ok(!JSON.stringify((await eventsOf(stream)).map((e) => e.data)).includes('N3w-pass!'));
    const deleted = await api.delete(`/v2/tm-logins/${login.credential_id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.deleted, true);
    assert.equal((await api.get(`/v2/tm-logins/${login.credential_id}`)).status, 404);
    await assert.rejects(openFromTheLog(keyId, changed.data.password as Sealed), KeyDestroyedError, 'its key went with it: the log’s passwords are unreadable');
  });

  it('a workspace with logins cannot be deleted; PATCH renames it', async () => {
    const ws = await tmWorkspace();
    const login = await tmLogin(ws.workspace_id);
    assert.equal((await api.delete(`/v2/tm-workspaces/${ws.workspace_id}`)).body.code, 'FST_ERR_WORKSPACE_IN_USE');
    assert.equal((await api.patch(`/v2/tm-workspaces/${ws.workspace_id}`, { name: 'Contoso' })).body.data.name, 'Contoso');
    await api.delete(`/v2/tm-logins/${login.credential_id}`);
    assert.equal((await api.delete(`/v2/tm-workspaces/${ws.workspace_id}`)).status, 200);
    assert.equal((await api.get(`/v2/tm-workspaces/${ws.workspace_id}`)).status, 404);
  });

  it('another team sees none of them; a Sending Access key manages nothing but may create bots with tm_config', async () => {
    const ws = await tmWorkspace();
    const login = await tmLogin(ws.workspace_id);
    assert.equal((await other.get(`/v2/tm-logins/${login.credential_id}`)).status, 404);
    assert.equal((await other.get(`/v2/tm-workspaces/${ws.workspace_id}`)).status, 404);
    assert.equal((await other.post('/v2/tm-logins', { email: 'a@b.co', name: 'N', password: 'p', workspace_id: ws.workspace_id })).status, 404);
    for (const [method, path] of [
      ['post', '/v2/tm-workspaces'], ['get', '/v2/tm-workspaces'], ['post', '/v2/tm-logins'], ['get', '/v2/tm-logins'],
      ['get', '/v2/tm-logins/utilization'], ['get', `/v2/tm-logins/${login.credential_id}`], ['patch', `/v2/tm-logins/${login.credential_id}`],
      ['delete', `/v2/tm-logins/${login.credential_id}`], ['post', '/v2/mt-workspaces'], ['get', '/v2/mt-logins/utilization'],
    ] as const) {
      const answer = await (sending[method] as (p: string, b?: unknown) => ReturnType<typeof api.get>)(path, {});
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.equal(answer.body.code, 'FST_ERR_FORBIDDEN');
    }
    const bot = await sending.post('/v2/bots', { meeting_url: TM_MEETING, bot_name: 'Notetaker', tm_config: { credential_id: login.credential_id } });
    assert.equal(bot.status, 201, JSON.stringify(bot.body));
  });

  it('tm_config and mt_config are accepted on their own platform only', async () => {
    assert.equal((await api.post('/v2/bots', { meeting_url: TM_MEETING, bot_name: 'Notetaker', tm_config: { email_group: 'pool@contoso.com', fallback: 'anonymous' } })).status, 201);
    assert.equal((await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Notetaker', mt_config: { fallback: 'fail' } })).status, 201);
    assert.match((await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'N', tm_config: {} })).body.message, /^body\/tm_config is only allowed for tm meetings/);
    assert.match((await api.post('/v2/bots', { meeting_url: TM_MEETING, bot_name: 'N', tm_config: { fallback: 'guest' } })).body.message, /^body\/tm_config\/fallback /);
  });

  it('mt workspace: the SSO profile to enter in Google Workspace; mt logins are accounts of its domain, without a password', async () => {
    const created = await api.post('/v2/mt-workspaces', { domain: 'example.com', name: 'Example' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const ws = created.body.data;
    assert.deepEqual(Object.keys(ws).sort(), [...WORKSPACE_FIELDS, 'sso'].sort());
    assert.equal(ws.sso.sign_in_page_url, `${t.url}/v2/mt-sso/${ws.workspace_id}/sso`);
    assert.equal(ws.sso.entity_id, `${t.url}/v2/mt-sso/${ws.workspace_id}`);
    assert.match(ws.sso.certificate, /^-----BEGIN CERTIFICATE-----/);
    assert.equal(ws.sso.acs_url, 'https://www.google.com/a/example.com/acs');
    const metadata = await documentedFetch(ws.sso.metadata_url);
    assert.equal(metadata.status, 200);
    const xml = await metadata.text();
    assert.ok(xml.includes(ws.sso.sign_in_page_url) && xml.includes('IDPSSODescriptor'), xml.slice(0, 200));
    assert.ok(!xml.includes('PRIVATE KEY'));
    const wrongDomain = await api.post('/v2/mt-logins', { email: 'bot@elsewhere.com', name: 'N', workspace_id: ws.workspace_id });
    assert.match(wrongDomain.body.message, /^body\/email must be an account of the workspace's domain example.com/);
    assert.match((await api.post('/v2/mt-logins', { email: 'bot@example.com', name: 'N', password: 'x', workspace_id: ws.workspace_id })).body.message, /^body\/password is not an allowed property/);
    const login = await api.post('/v2/mt-logins', { email: 'Bot@Example.com', name: 'N', workspace_id: ws.workspace_id });
    assert.equal(login.status, 201);
    assert.deepEqual(Object.keys(login.body.data).sort(), LOGIN_FIELDS);
    assert.equal((await api.get(`/v2/mt-logins/${login.body.data.credential_id}`)).status, 200);
    assert.equal((await api.get(`/v2/tm-logins/${login.body.data.credential_id}`)).status, 404, 'an mt login is not a tm one');
    const signingKey = (await eventsOf(`mt-workspace-${ws.workspace_id}`))[0]!.data.signing_key as { private_key: Sealed };
    const keyId = `mt-workspace-${ws.workspace_id}`;
    assert.match(await openFromTheLog(keyId, signingKey.private_key), /^-----BEGIN PRIVATE KEY-----/);
    assert.equal((await api.delete(`/v2/mt-logins/${login.body.data.credential_id}`)).status, 200);
    assert.equal((await api.delete(`/v2/mt-workspaces/${ws.workspace_id}`)).status, 200);
    await assert.rejects(openFromTheLog(keyId, signingKey.private_key), KeyDestroyedError, 'the private key went with the workspace');
  });

  it('the identity provider answers no key, in the media types the document gives (pages; the envelope for a body it cannot read)', async () => {
    const ws = (await api.post('/v2/mt-workspaces', { domain: 'example.org' })).body.data;
    const base = `${t.url}/v2/mt-sso`;
    const page = async (url: string, init: RequestInit = {}) => {
      const answer = await documentedFetch(url, init);
      return { status: answer.status, type: answer.headers.get('content-type') ?? '', text: await answer.text() };
    };
    const metadata = await page(`${base}/${ws.workspace_id}/metadata`);
    assert.deepEqual([metadata.status, metadata.type], [200, 'application/samlmetadata+xml']);
    const unknown = await page(`${base}/00000000-0000-4000-8000-000000000000/metadata`);
    assert.deepEqual([unknown.status, unknown.type], [404, 'text/html; charset=utf-8']);
    assert.equal((await page(`${base}/not-an-id/sso?SAMLRequest=x`)).status, 404);
    assert.equal((await page(`${base}/${ws.workspace_id}/sso`)).status, 400, 'no SAMLRequest: a page saying why');
    assert.match((await page(`${base}/${ws.workspace_id}/signed-out`)).text, /Signed out/);
    assert.equal((await page(`${base}/%C2%84/signed-out`)).status, 404, 'no workspace, no identity provider: not even its signed-out page');
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const tooLarge = await page(`${base}/${ws.workspace_id}/sso`, { ...form, body: `SAMLRequest=${'a'.repeat(300 * 1024)}` });
    assert.equal(tooLarge.status, 413);
    assert.equal(JSON.parse(tooLarge.text).code, 'FST_ERR_CTP_BODY_TOO_LARGE');
    const notUtf8 = await page(`${base}/${ws.workspace_id}/sso`, { ...form, body: Buffer.from([0x53, 0x3d, 0xff, 0xfe]) });
    assert.deepEqual([notUtf8.status, JSON.parse(notUtf8.text).code], [400, 'FST_ERR_VALIDATION']);
    const put = await fetch(`${base}/${ws.workspace_id}/sso`, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.deepEqual(put.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD', 'POST']);
  });

  it('utilization of an empty pool is all zeros', async () => {
    const fresh = apiClient(t.url, (await createTeam(t.url)).api_key);
    const data = (await fresh.get('/v2/tm-logins/utilization')).body.data;
    assert.deepEqual(data, { by_email_group: [], concurrent_capacity: 0, concurrent_sessions: 0, logins_active: 0, logins_invalid: 0, logins_total: 0, utilization_pct: 0 });
  });
});
