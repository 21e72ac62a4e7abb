import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam, MEETING, request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const FORBIDDEN = { success: false, error: 'Forbidden', code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', statusCode: 403 };

describe('authentication and permissions', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(() => t.stop());

  it('refuses a request without a key with 401 in the envelope', async () => {
    const response = await request(t.url, 'GET', '/v2/bots');
    assert.equal(response.status, 401);
    assert.equal(response.body.success, false);
    assert.equal(response.body.statusCode, 401);
    assert.equal(typeof response.body.code, 'string');
  });

  it('refuses an unknown key with 401', async () => {
    const response = await apiClient(t.url, 'mbs_not-a-key').get('/v2/bots');
    assert.equal(response.status, 401);
  });

  it('lets a Sending Access key create bots and nothing else, with exactly the spec 403 body', async () => {
    const team = await createTeam(t.url);
    const issued = await adminClient(t.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'sending' });
    assert.equal(issued.status, 201);
    const sending = apiClient(t.url, issued.body.data.api_key);

    const created = await sending.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Sender' });
    assert.equal(created.status, 201);
    const botId = created.body.data.bot_id;

    for (const call of [
      () => sending.get(`/v2/bots/${botId}`),
      () => sending.get('/v2/bots'),
      () => sending.get(`/v2/bots/${botId}/events`),
      () => sending.post(`/v2/bots/${botId}/leave`),
      () => sending.post(`/v2/bots/${botId}/send-chat-message`, { message: 'hi' }),
    ]) {
      const response = await call();
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, FORBIDDEN);
    }
  });

  it('hides one team’s bots from another team (404)', async () => {
    const a = await createTeam(t.url);
    const b = await createTeam(t.url);
    const created = await apiClient(t.url, a.api_key).post('/v2/bots', { meeting_url: MEETING, bot_name: 'A' });
    const botId = created.body.data.bot_id;
    const other = apiClient(t.url, b.api_key);
    assert.equal((await other.get(`/v2/bots/${botId}`)).status, 404);
    assert.equal((await other.get(`/v2/bots/${botId}/events`)).status, 404);
    assert.equal((await other.post(`/v2/bots/${botId}/leave`)).status, 404);
    const list = await other.get('/v2/bots');
    assert.deepEqual(list.body.data.bots, []);
  });

  it('stops accepting a key once it is revoked', async () => {
    const team = await createTeam(t.url);
    const issued = await adminClient(t.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'full' });
    const client = apiClient(t.url, issued.body.data.api_key);
    assert.equal((await client.get('/v2/bots')).status, 200);
    const revoked = await adminClient(t.url).delete(`/admin/teams/${team.team_id}/api-keys/${issued.body.data.key_id}`);
    assert.equal(revoked.status, 200);
    assert.equal((await client.get('/v2/bots')).status, 401);
  });

  it('guards the admin API with the admin token', async () => {
    assert.equal((await request(t.url, 'POST', '/admin/teams', { body: { name: 'x' } })).status, 401);
    const wrong = await request(t.url, 'POST', '/admin/teams', { body: { name: 'x' }, headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.success, false);
  });
});
