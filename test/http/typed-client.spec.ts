import assert from 'node:assert/strict';
import { verifyCallback, verifyWebhook, WebhookVerificationError, type V2WebhookEvent } from '../../client/webhooks';
import type { ErrorCodeOf } from '../../client';
import type { WebhookEventType } from '../../src/domain/webhooks/webhook-event-types';
import { createTeam, MEETING, typedApi } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Compiled, not run: an event an endpoint can subscribe to that the client's webhook type leaves out fails `tsc` here. */
type EventsTheClientLacks = Exclude<WebhookEventType, V2WebhookEvent['event']>;
export const everyEndpointEventTyped: [EventsTheClientLacks] extends [never] ? true : EventsTheClientLacks = true;

/** The typed client (client/) against the live service: typed requests, answers and error codes, and verified webhooks. */
describe('the typed client: requests, answers and errors typed from the document; webhooks verified', () => {
  let t: TestService;
  let receiver: WebhookReceiver;
  let key: string;
  before(async () => {
    t = await startTestService();
    receiver = await new WebhookReceiver().start();
    key = (await createTeam(t.url)).api_key;
  });
  after(async () => {
    await t.stop();
    await receiver.stop();
  });

  it('creates, reads and lists a bot with typed paths, parameters and answers', async () => {
    const api = typedApi(t.url, key);
    const created = await api.POST('/v2/bots', { body: { meeting_url: MEETING, bot_name: 'Typed', extra: { ticket: 'T-1' } } });
    assert.equal(created.response.status, 201);
    const botId = created.data!.data.bot_id;
    const read = await api.GET('/v2/bots/{bot_id}', { params: { path: { bot_id: botId } } });
    assert.equal(read.data?.data.status, 'queued');
    assert.deepEqual(read.data?.data.extra, { ticket: 'T-1' });
    const listed = await api.GET('/v2/bots', { params: { query: { limit: 1 } } });
    assert.deepEqual(listed.data?.data.bots.map((b) => b.bot_id), [botId]);
  });

  it('types the error of each operation by its codes', async () => {
    const api = typedApi(t.url, key);
    const refused = await api.POST('/v2/bots', { body: { meeting_url: 'https://example.com/not-a-meeting', bot_name: 'Typed' } });
    assert.equal(refused.response.status, 400);
    const code: ErrorCodeOf<'createBot'> | undefined = refused.error?.code;
    assert.equal(code, 'FST_ERR_VALIDATION');
    assert.match(refused.error!.message, /^body\/meeting_url INVALID_MEETING_URL/);
    const missing = await api.GET('/v2/bots/{bot_id}', { params: { path: { bot_id: '00000000-0000-4000-8000-000000000000' } } });
    const notFound: ErrorCodeOf<'getBot'> | undefined = missing.error?.code;
    assert.equal(notFound, 'FST_ERR_BOT_NOT_FOUND');
    const withoutKey = await typedApi(t.url).GET('/v2/bots');
    assert.equal(withoutKey.error?.code, 'FST_ERR_UNAUTHORIZED');
  });

  it('verifies an endpoint\'s webhook with its secret and a callback with the bot\'s, and refuses a forged one', async () => {
    const api = typedApi(t.url, key);
    const endpoint = await api.POST('/v2/webhooks', { body: { url: receiver.url, events: ['bot.failed'] } });
    const secret = endpoint.data!.data.secret;
    const created = await api.POST('/v2/bots', {
      body: { meeting_url: MEETING, bot_name: 'Typed', callback_enabled: true, callback_config: { url: `${receiver.url}/callback`, secret: 'callback-secret' } },
    });
    const botId = created.data!.data.bot_id;
    await api.POST('/v2/bots/{bot_id}/leave', { params: { path: { bot_id: botId } } });
    const received = await receiver.waitFor((all) => all.filter((r) => r.body?.data?.bot_id === botId).length >= 2);
    const hook = received.find((r) => r.body.data?.bot_id === botId && r.path === '/hooks')!;
    const callback = received.find((r) => r.body.data?.bot_id === botId && r.path === '/hooks/callback')!;

    const event = verifyWebhook(secret, hook.raw, hook.headers);
    assert.equal(event.event, 'bot.failed');
    if (event.event === 'bot.failed') assert.equal(event.data.bot_id, botId);
    const final = verifyCallback('callback-secret', callback.raw, callback.headers);
    assert.equal(final.data.bot_id, botId);

    assert.throws(() => verifyWebhook(secret, hook.raw.replace(botId, '00000000-0000-4000-8000-000000000000'), hook.headers), WebhookVerificationError);
    assert.throws(() => verifyCallback('another-secret', callback.raw, callback.headers), WebhookVerificationError);
  });
});
