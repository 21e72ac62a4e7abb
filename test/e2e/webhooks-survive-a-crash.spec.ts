import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { freePort, ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';

describe('webhooks survive a SIGKILL of the service (a real service process)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let service: ServiceProcess;
  let receiver: WebhookReceiver | null = null;

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-crash-'));
    // The receiver listens on this machine: the one development convenience it needs.
    service = new ServiceProcess(await freePort(), { DATA_DIR: dataDir, BOT_SLOTS: '0', ALLOW_PRIVATE_WEBHOOK_TARGETS: '1' });
  });
  after(async () => {
    await service.kill();
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a receiver that is down while the service is killed and restarted still gets every event, each exactly once after de-duplication', async () => {
    await service.start();
    const receiverPort = await freePort();
    const team = await createTeam(service.url, { tokens: 100 });
    const api = apiClient(service.url, team.api_key);
    const endpoint = await api.post('/v2/webhooks', { url: `http://127.0.0.1:${receiverPort}/hooks`, events: ['bot.failed'] });
    assert.equal(endpoint.status, 201);

    const leaveABot = async (name: string) => {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: name });
      assert.equal((await api.post(`/v2/bots/${created.body.data.bot_id}/leave`)).status, 200);
      return created.body.data.bot_id as string;
    };
    // Three whose first attempt failed (nobody listens), two killed in the middle of being sent.
    const bots = [await leaveABot('One'), await leaveABot('Two'), await leaveABot('Three')];
    const deliveries = () => api.get(`/v2/webhooks/${endpoint.body.data.webhook_id}/deliveries`);
    const failed = await readUntil(deliveries, (d) => d.body.data.deliveries.length >= 3);
    assert.ok(failed.body.data.deliveries.every((d: { succeeded: boolean; error: string }) => !d.succeeded && /ECONNREFUSED/.test(d.error)));
    bots.push(await leaveABot('Four'), await leaveABot('Five'));
    await service.kill();

    receiver = await new WebhookReceiver().start(receiverPort);
    await service.start();

    await receiver.waitFor((r) => new Set(r.map((x) => x.body.data.bot_id)).size === 5);
    const byWebhookId = new Map(receiver.received.map((r) => [r.headers['webhook-id'], r]));
    assert.equal(byWebhookId.size, 5, 'de-duplicated on webhook-id: each event exactly once');
    assert.deepEqual(new Set([...byWebhookId.values()].map((r) => r.body.data.bot_id)), new Set(bots));
    assert.ok([...byWebhookId.values()].every((r) => r.body.event === 'bot.failed' && r.body.data.error_code === 'EXITING_MEETING_BEFORE_RECORD'));
    const log = await readUntil(deliveries, (d) => d.body.data.deliveries.filter((x: { succeeded: boolean }) => x.succeeded).length === 5);
    assert.equal(log.body.data.deliveries.filter((x: { succeeded: boolean }) => x.succeeded).length, 5, 'every success recorded after the restart');
  });
});
