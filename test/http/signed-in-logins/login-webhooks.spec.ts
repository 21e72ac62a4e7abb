import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { apiClient, createTeam, MEETING, request } from '../../support/http-client';
import { ScriptedLauncher, type ScriptedLaunch } from '../../support/scripted-launcher';
import { startTestService, type TestService } from '../../support/test-service';
import { WebhookReceiver } from '../../support/webhook-receiver';

const TM_MEETING = 'https://tm.localhost:8443/l/meetup-join/room-3';

const signIn = (launch: ScriptedLaunch, path: string, body?: unknown) =>
  request(`${launch.serviceUrl}/internal/bots/${launch.job.bot_id}`, 'POST', path, { ...(body ? { body } : {}), headers: { authorization: `Bearer ${launch.botToken}` } });

describe('account webhooks of signed-in bots: a login or workspace turned invalid, a saturated pool', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;
  let apiKey: string;
  let receiver: WebhookReceiver;
  let secret: string;

  before(async () => {
    launcher = new ScriptedLauncher();
    receiver = await new WebhookReceiver().start();
    t = await startTestService({ botSlots: 10, overrides: { launcher } });
    apiKey = (await createTeam(t.url, { tokens: 100 })).api_key;
    api = apiClient(t.url, apiKey);
    const endpoint = await api.post('/v2/webhooks', { url: receiver.url, events: ['login.invalid', 'workspace.invalid', 'login.saturated'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    secret = endpoint.body.data.secret;
  });
  after(async () => {
    await t.stop();
    await receiver.stop();
  });

  const bot = async (body: Record<string, unknown>) => launcher.waitForLaunch((await api.post('/v2/bots', body)).body.data.bot_id);

  it('sends login.invalid, workspace.invalid and login.saturated, signed, with the key that created them', async () => {
    const tm = (await api.post('/v2/tm-workspaces', { domain: 'contoso.com' })).body.data;
    const credential = (await api.post('/v2/tm-logins', { email: 'locked@contoso.com', name: 'Locked', password: 'pw', workspace_id: tm.workspace_id, email_group: 'g@contoso.com' })).body.data.credential_id;
    const locked = await bot({ meeting_url: TM_MEETING, bot_name: 'Notetaker', tm_config: { email_group: 'g@contoso.com' } });
    await signIn(locked, '/sign-in');
    await signIn(locked, '/sign-in/result', { ok: false, kind: 'account_locked', message: 'Your account has been locked.' });
    const saturated = await bot({ meeting_url: TM_MEETING, bot_name: 'Notetaker', tm_config: { email_group: 'g@contoso.com', fallback: 'anonymous' } });
    await signIn(saturated, '/sign-in');

    const mt = (await api.post('/v2/mt-workspaces', { domain: 'example.com', name: 'Example' })).body.data;
    await api.post('/v2/mt-logins', { email: 'bot@example.com', name: 'Bot', workspace_id: mt.workspace_id });
    const rejected = await bot({ meeting_url: MEETING, bot_name: 'Notetaker', mt_config: {} });
    await signIn(rejected, '/sign-in');
    await signIn(rejected, '/sign-in/result', { ok: false, kind: 'saml_rejected', message: 'certificate mismatch' });

    const got = await receiver.waitFor((r) => ['login.invalid', 'login.saturated', 'workspace.invalid'].every((e) => r.some((w) => w.body?.event === e)));
    const of = (event: string) => got.find((w) => w.body.event === event)!;
    for (const w of got) {
      assert.doesNotThrow(() => new Webhook(secret).verify(w.raw, w.headers as Record<string, string>));
      assert.equal(w.headers['x-service-api-key'], apiKey);
    }
    assert.deepEqual(of('login.invalid').body.data, {
      platform: 'tm',
      credential_id: credential,
      workspace_id: tm.workspace_id,
      email: 'locked@contoso.com',
      name: 'Locked',
      email_group: 'g@contoso.com',
      state: 'invalid',
      last_error_at: of('login.invalid').body.data.last_error_at,
      last_error_message: 'Your account has been locked.',
      failure_data: { code: 'TM_LOGIN_FAILED_ACCOUNT_LOCKED', reason: 'account_locked', bot_id: locked.job.bot_id },
    });
    const sat = of('login.saturated').body.data;
    assert.equal(sat.bot_id, saturated.job.bot_id);
    assert.equal(sat.fallback, 'anonymous');
    assert.equal(sat.email_group, 'g@contoso.com');
    assert.deepEqual([sat.logins, sat.logins_active], [1, 0]);
    const ws = of('workspace.invalid').body.data;
    assert.equal(ws.workspace_id, mt.workspace_id);
    assert.equal(ws.domain, 'example.com');
    assert.equal(ws.failure_data.code, 'MT_LOGIN_FAILED_SAML_REJECTED');
  });
});
