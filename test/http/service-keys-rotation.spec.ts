import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { isSealedSecret, sealingKeyIdOf } from '../../src/adapters/crypto/secret-box';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const A = 'a1'.repeat(32);
const B = 'b2'.repeat(32);
const idOf = (secret: string) => new ServiceKeys([Buffer.from(secret)]).current.id;

/** The key id of every sealed value in the event log, by stream. */
const sealedKeyIds = async (t: TestService): Promise<Map<string, Set<string>>> => {
  const found = new Map<string, Set<string>>();
  const walk = (stream: string, value: unknown): void => {
    if (isSealedSecret(value)) {
      found.set(stream, (found.get(stream) ?? new Set()).add(sealingKeyIdOf(value) ?? 'unknown'));
    } else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) walk(stream, inner);
    }
  };
  for (const event of await t.service.eventStore.readAll()) walk(event.streamName, event.data);
  return found;
};

describe('a key rotation on a running service: new values under the new key, the old ones still in use', function () {
  this.timeout(60_000);
  let t: TestService;
  let receiver: WebhookReceiver;
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  it('a bot and an endpoint sealed under the old key still deliver, signed and carrying the key, after the rotation', async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestService({ serviceSecret: A, overrides: { webhookDelivery: { pollMs: 20 } } });
    const team = await createTeam(t.url, { tokens: 10 });
    const api = apiClient(t.url, team.api_key);
    const endpoint = (await api.post('/v2/webhooks', { url: receiver.url, events: ['bot.failed'] })).body.data as { webhook_id: string; secret: string };
    const botId = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Before the rotation' })).body.data.bot_id as string;
    const beforeRotation = await sealedKeyIds(t);
    assert.ok(beforeRotation.size >= 2, 'the endpoint’s secret and the bot’s creator key are sealed');
    for (const ids of beforeRotation.values()) assert.deepEqual([...ids], [idOf(A)]);

    t = await t.restart({ serviceSecret: B, previousServiceSecrets: [A] });
    const again = apiClient(t.url, team.api_key);
    assert.equal((await again.post(`/v2/bots/${botId}/leave`)).status, 200);
    await receiver.waitFor((r) => r.some((x) => x.body.data?.bot_id === botId));
    const delivered = receiver.received.find((x) => x.body.data?.bot_id === botId)!;
    assert.deepEqual(new Webhook(endpoint.secret).verify(delivered.raw, delivered.headers), delivered.body, 'signed with the secret sealed under the old key');
    assert.equal(delivered.headers['x-service-api-key'], team.api_key, 'the creator’s key, sealed under the old key, opened');

    const second = await again.post('/v2/webhooks', { url: receiver.url, events: ['bot.completed'] });
    assert.equal(second.status, 201);
    const afterRotation = await sealedKeyIds(t);
    assert.deepEqual([...afterRotation.get(`webhook-endpoint-${second.body.data.webhook_id}`) ?? []], [idOf(B)], 'new values are sealed under the new key');
    assert.deepEqual([...afterRotation.get(`webhook-endpoint-${endpoint.webhook_id}`) ?? []], [idOf(A)], 'old events stay as they were');
  });
});
