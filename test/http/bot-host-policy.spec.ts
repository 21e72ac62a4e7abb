/**
 * What the service lets its bots do on their host comes from its own settings, in the job: customers'
 * endpoints on private addresses only under a development switch that lets the service reach them too, and
 * the sandbox's certificate trusted only while the service takes sandbox meetings (SANDBOX_HOSTS).
 */
import assert from 'node:assert/strict';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

describe("the bots' host policy in their jobs", () => {
  const running: TestService[] = [];
  after(async () => {
    for (const t of running) await t.stop();
  });

  const botOn = async (options: { allowPrivateStorageEndpoints: boolean; allowPrivateWebhookTargets: boolean }, meetingUrl = MEETING) => {
    const launcher = new ScriptedLauncher();
    const t = await startTestService({ botSlots: 1, overrides: { launcher }, ...options });
    running.push(t);
    const api = apiClient(t.url, (await createTeam(t.url, { tokens: 10 })).api_key);
    const created = await api.post('/v2/bots', { meeting_url: meetingUrl, bot_name: 'Policy' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return (await launcher.waitForLaunch(created.body.data.bot_id)).job;
  };

  it('public addresses only, unless a development switch lets the service reach private ones', async () => {
    assert.equal((await botOn({ allowPrivateStorageEndpoints: false, allowPrivateWebhookTargets: false })).private_addresses_allowed, false);
    assert.equal((await botOn({ allowPrivateStorageEndpoints: true, allowPrivateWebhookTargets: false })).private_addresses_allowed, true);
    assert.equal((await botOn({ allowPrivateStorageEndpoints: false, allowPrivateWebhookTargets: true })).private_addresses_allowed, true);
  });

  it('trusts the sandbox certificate only while the service takes sandbox meetings, not for a bot queued before', async () => {
    const job = await botOn({ allowPrivateStorageEndpoints: true, allowPrivateWebhookTargets: true }, 'https://mt.localhost:8443/abc-defg-hij');
    assert.equal(job.trust_sandbox_certificate, true);

    // queued while sandbox meetings were taken, dispatched after the service stopped taking them
    const t = await startTestService({ botSlots: 0, sandboxHosts: true });
    const api = apiClient(t.url, (await createTeam(t.url, { tokens: 10 })).api_key);
    const created = await api.post('/v2/bots', { meeting_url: 'https://mt.localhost:8443/abc-defg-hij', bot_name: 'Queued' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const launcher = new ScriptedLauncher();
    running.push(await t.restart({ botSlots: 1, sandboxHosts: false, overrides: { launcher } }));
    const later = await launcher.waitForLaunch(created.body.data.bot_id, 15_000);
    assert.equal(later.job.trust_sandbox_certificate, false, 'a certificate a local port presents is never trusted by a service not set up for the sandbox');
  });
});
