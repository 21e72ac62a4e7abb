import assert from 'node:assert/strict';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

/** Names of the test and what they resolve to; `moved.example` is public until the test moves it. */
const addresses = new Map<string, string[]>([
  ['hooks.example', ['93.184.216.34']],
  ['localhost', ['127.0.0.1', '::1']],
  ['internal.example', ['10.1.2.3']],
  ['mixed.example', ['93.184.216.34', '192.168.1.10']],
  ['moved.example', ['93.184.216.34']],
]);
const resolveHost = async (hostname: string) => {
  const found = addresses.get(hostname);
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('where webhooks may go in production: public https addresses only, at creation and at send time', () => {
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let launcher: ScriptedLauncher;

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 10, allowPrivateWebhookTargets: false, overrides: { launcher, resolveHost, webhookDelivery: { pollMs: 20 } } });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(() => t.stop());

  const refusals: Array<[string, RegExp]> = [
    ['http://hooks.example/in', /^body\/url must be an https URL$/],
    ['http://127.0.0.1:8080/in', /^body\/url must be an https URL$/],
    ['https://127.0.0.1/in', /127\.0\.0\.1, which is not a public address/],
    ['https://localhost/in', /127\.0\.0\.1, which is not a public address/],
    ['https://[::1]/in', /::1, which is not a public address/],
    ['https://10.0.0.8/in', /10\.0\.0\.8, which is not a public address/],
    ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254, which is not a public address/],
    ['https://[::ffff:192.168.0.1]/in', /which is not a public address/],
    ['https://internal.example/in', /10\.1\.2\.3, which is not a public address/],
    ['https://mixed.example/in', /192\.168\.1\.10, which is not a public address/],
    ['https://nowhere.example/in', /nowhere\.example cannot be resolved/],
  ];
  for (const [url, message] of refusals) {
    it(`refuses ${url} as an endpoint`, async () => {
      const refused = await api.post('/v2/webhooks', { url });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'FST_ERR_VALIDATION');
      assert.match(refused.body.message, message);
    });
  }

  it('refuses a private callback URL on a bot, and a private URL moved in by PATCH', async () => {
    const bot = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'B', callback_enabled: true, callback_config: { url: 'https://internal.example/cb' } });
    assert.equal(bot.status, 400);
    assert.match(bot.body.message, /^body\/callback_config\/url resolves to 10\.1\.2\.3, which is not a public address$/);
    const created = await api.post('/v2/webhooks', { url: 'https://hooks.example/in' });
    assert.equal(created.status, 201);
    const moved = await api.patch(`/v2/webhooks/${created.body.data.webhook_id}`, { url: 'https://localhost/in' });
    assert.equal(moved.status, 400);
    assert.equal((await api.get(`/v2/webhooks/${created.body.data.webhook_id}`)).body.data.url, 'https://hooks.example/in', 'unchanged');
  });

  it('a name that was public at creation and now resolves to a private address is refused at send time', async () => {
    const created = await api.post('/v2/webhooks', { url: 'https://moved.example/in', events: ['bot.failed'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    addresses.set('moved.example', ['127.0.0.1']);
    const bot = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Rebound' });
    (await launcher.waitForLaunch(bot.body.data.bot_id)).exit({ signal: 'SIGKILL' });
    const log = await readUntil(() => api.get(`/v2/webhooks/${created.body.data.webhook_id}/deliveries`), (l) => l.body.data.deliveries.length === 1);
    const [attempt] = log.body.data.deliveries;
    assert.equal(attempt.status_code, null);
    assert.match(attempt.error, /^refused: the URL resolves to 127\.0\.0\.1, which is not a public address$/);
  });
});

describe('where webhooks may go elsewhere (development): https anywhere, plain http to this machine only', () => {
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  before(async () => {
    t = await startTestService({ overrides: { resolveHost } });
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(() => t.stop());

  it('accepts http to loopback and https anywhere; refuses http elsewhere', async () => {
    for (const url of ['http://127.0.0.1:9/in', 'http://localhost:9/in', 'https://internal.example/in', 'https://hooks.example/in']) {
      assert.equal((await api.post('/v2/webhooks', { url })).status, 201, url);
    }
    for (const url of ['http://hooks.example/in', 'http://10.0.0.8/in']) {
      const refused = await api.post('/v2/webhooks', { url });
      assert.equal(refused.status, 400, url);
      assert.match(refused.body.message, /plain http is allowed to this machine only/);
    }
  });
});
