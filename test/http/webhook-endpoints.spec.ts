import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

describe('webhook endpoints: management under Full Access (DESIGN.md "Delivery")', () => {
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let teamId: string;

  before(async () => {
    t = await startTestService();
    const team = await createTeam(t.url);
    teamId = team.team_id;
    api = apiClient(t.url, team.api_key);
  });
  after(() => t.stop());

  const create = async (body: Record<string, unknown> = {}) => {
    const created = await api.post('/v2/webhooks', { url: 'https://hooks.example/in', ...body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.data;
  };

  it('creates an endpoint for every event kind and shows its whsec_ secret once', async () => {
    const created = await create({ description: 'CRM' });
    assert.match(created.webhook_id, /^[0-9a-f-]{36}$/);
    assert.equal(created.url, 'https://hooks.example/in');
    assert.equal(created.events, null, 'null: every kind, present and future');
    assert.equal(created.enabled, true);
    assert.equal(created.description, 'CRM');
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, '32 random bytes, base64');
    assert.ok(!Number.isNaN(Date.parse(created.created_at)));

    const read = await api.get(`/v2/webhooks/${created.webhook_id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.secret, undefined, 'never shown again');
    const listed = await api.get('/v2/webhooks');
    const mine = listed.body.data.webhooks.find((w: { webhook_id: string }) => w.webhook_id === created.webhook_id);
    assert.ok(mine);
    assert.equal(mine.secret, undefined);
    assert.ok(!JSON.stringify((await api.get(`/v2/webhooks/${created.webhook_id}/deliveries`)).body).includes(created.secret));
  });

  it('subscribes to chosen event kinds and refuses unknown or repeated ones', async () => {
    const created = await create({ events: ['bot.completed', 'bot.failed'] });
    assert.deepEqual(created.events, ['bot.completed', 'bot.failed']);
    const unknown = await api.post('/v2/webhooks', { url: 'https://hooks.example/in', events: ['bot.exploded'] });
    assert.equal(unknown.status, 400);
    assert.equal(
      unknown.body.message,
      'body/events/0 must be equal to one of the allowed values: bot.status_change, bot.completed, bot.failed, bot.transcription_completed, bot.transcription_failed, calendar.events_synced, calendar.event_created, calendar.event_updated, calendar.event_cancelled, calendar.error, login.invalid, workspace.invalid, login.saturated, vc_credential.invalid',
    );
    const repeated = await api.post('/v2/webhooks', { url: 'https://hooks.example/in', events: ['bot.failed', 'bot.failed'] });
    assert.equal(repeated.status, 400);
    assert.equal(repeated.body.message, 'body/events must NOT have duplicate items');
  });

  it('refuses a body that is not an endpoint, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'body/url is required'],
      [{ url: 'ftp://hooks.example/in' }, 'body/url must be an https URL'],
      [{ url: 'not a url' }, 'body/url must be a valid URL'],
      [{ url: 'http://hooks.example/in' }, 'body/url must be an https URL (plain http is allowed to this machine only)'],
      [{ url: 'https://hooks.example/in', secret: 'mine' }, 'body/secret is not an allowed property'],
      [{ url: 'https://hooks.example/in', description: 'x'.repeat(501) }, 'body/description must NOT have more than 500 characters'],
    ];
    for (const [body, message] of cases) {
      const refused = await api.post('/v2/webhooks', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.code, 'FST_ERR_VALIDATION');
      assert.equal(refused.body.message, message);
    }
    assert.equal((await api.post('/v2/webhooks')).status, 400, 'no body');
  });

  it('updates url, events, description and enabled; a field left out keeps its value', async () => {
    const created = await create({ description: 'first' });
    const patched = await api.patch(`/v2/webhooks/${created.webhook_id}`, { url: 'https://hooks.example/v2', events: ['bot.failed'], enabled: false });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(
      [patched.body.data.url, patched.body.data.events, patched.body.data.enabled, patched.body.data.description],
      ['https://hooks.example/v2', ['bot.failed'], false, 'first'],
    );
    const cleared = await api.patch(`/v2/webhooks/${created.webhook_id}`, { description: null, events: [] });
    assert.deepEqual([cleared.body.data.description, cleared.body.data.events], [null, null]);
    const empty = await api.patch(`/v2/webhooks/${created.webhook_id}`, {});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.message, 'body must have at least one of url, events, description, enabled');
  });

  it('rotates the secret: a new whsec_ secret, shown once', async () => {
    const created = await create();
    const rotated = await api.post(`/v2/webhooks/${created.webhook_id}/rotate-secret`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.data.secret, /^whsec_/);
    assert.notEqual(rotated.body.data.secret, created.secret);
  });

  it('deletes an endpoint: gone for every route, and a second delete is 404', async () => {
    const created = await create();
    const deleted = await api.delete(`/v2/webhooks/${created.webhook_id}`);
    assert.deepEqual([deleted.status, deleted.body.data], [200, { webhook_id: created.webhook_id, deleted: true }]);
    for (const call of [
      () => api.get(`/v2/webhooks/${created.webhook_id}`),
      () => api.patch(`/v2/webhooks/${created.webhook_id}`, { enabled: true }),
      () => api.post(`/v2/webhooks/${created.webhook_id}/rotate-secret`),
      () => api.get(`/v2/webhooks/${created.webhook_id}/deliveries`),
      () => api.delete(`/v2/webhooks/${created.webhook_id}`),
    ]) {
      const answer = await call();
      assert.equal(answer.status, 404);
      assert.equal(answer.body.code, 'FST_ERR_WEBHOOK_NOT_FOUND');
    }
    assert.ok(!(await api.get('/v2/webhooks')).body.data.webhooks.some((w: { webhook_id: string }) => w.webhook_id === created.webhook_id));
  });

  it('another team’s endpoint does not exist for a team, and a malformed id is a 400', async () => {
    const created = await create();
    const other = apiClient(t.url, (await createTeam(t.url)).api_key);
    for (const call of [() => other.get(`/v2/webhooks/${created.webhook_id}`), () => other.delete(`/v2/webhooks/${created.webhook_id}`)]) {
      assert.equal((await call()).status, 404);
    }
    assert.equal((await api.get(`/v2/webhooks/${created.webhook_id}`)).status, 200, 'still there for its own team');
    const malformed = await api.get('/v2/webhooks/not-a-uuid');
    assert.deepEqual([malformed.status, malformed.body.message], [400, 'params/webhook_id must match format "uuid"']);
  });

  it('a Sending Access key gets the spec’s 403 on every webhook route', async () => {
    const issued = await adminClient(t.url).post(`/admin/teams/${teamId}/api-keys`, { permission: 'sending' });
    const sending = apiClient(t.url, issued.body.data.api_key);
    const created = await create();
    for (const call of [
      () => sending.post('/v2/webhooks', { url: 'https://hooks.example/in' }),
      () => sending.get('/v2/webhooks'),
      () => sending.get(`/v2/webhooks/${created.webhook_id}`),
      () => sending.patch(`/v2/webhooks/${created.webhook_id}`, { enabled: false }),
      () => sending.delete(`/v2/webhooks/${created.webhook_id}`),
      () => sending.post(`/v2/webhooks/${created.webhook_id}/rotate-secret`),
      () => sending.get(`/v2/webhooks/${created.webhook_id}/deliveries`),
    ]) {
      const answer = await call();
      assert.equal(answer.status, 403);
      assert.deepEqual(answer.body, { success: false, error: 'Forbidden', code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', statusCode: 403 });
    }
  });
});
