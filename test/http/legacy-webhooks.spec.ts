import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { apiClient, createTeam, MEETING, request } from '../support/http-client';
import { asBot } from '../support/as-bot';
import { readUntil } from '../support/read-until';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

/** What a receiver saw, as the legacy events' names: the status code for a status change. */
const names = (received: readonly ReceivedWebhook[]) =>
  received.map((r) => (r.body.event === 'bot.status_change' ? r.body.data.status.code : r.body.event));

const isFinal = (r: ReceivedWebhook) => r.body.event === 'complete' || r.body.event === 'failed';

/**
 * Each message once, as a receiver keeps them by webhook-id: delivery is at least once, and on a loaded
 * machine an answer slower than the attempt's timeout is sent again (in order: a stream waits for it).
 */
const once = (received: readonly ReceivedWebhook[]) => received.filter((r, i) => received.findIndex((x) => x.headers['webhook-id'] === r.headers['webhook-id']) === i);

describe('legacy webhooks: bot.status_change, complete and failed for bots created through the legacy API', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  /** the service's clock: real time, moved ahead when a test waits for a retry */
  let offsetMs = 0;
  const receivers: WebhookReceiver[] = [];
  const now = () => new Date(Date.now() + offsetMs).toISOString();

  before(async () => {
    launcher = new ScriptedLauncher();
    t = await startTestService({
      botSlots: 50,
      clock: () => new Date(Date.now() + offsetMs),
      overrides: { launcher, webhookDelivery: { pollMs: 20, timeoutMs: 10_000 }, webhookJitter: () => 0.5 },
    });
  });
  after(async () => {
    await t.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  const receiver = async (answer?: ConstructorParameters<typeof WebhookReceiver>[0]) => {
    const r = await new WebhookReceiver(answer).start();
    receivers.push(r);
    return r;
  };
  /** A team with an account endpoint (which a bot's own webhook_url replaces). */
  const team = async (endpointUrl: string) => {
    const created = await createTeam(t.url, { tokens: 100 });
    const api = apiClient(t.url, created.api_key);
    const endpoint = await api.post('/v2/webhooks', { url: endpointUrl });
    assert.equal(endpoint.status, 201);
    return { api, apiKey: created.api_key, secret: endpoint.body.data.secret as string };
  };
  const createLegacyBot = async (api: ReturnType<typeof apiClient>, body: Record<string, unknown> = {}) => {
    const created = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Legacy Hooks', ...body });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const botId = created.body.bot_id as string;
    return { botId, bot: asBot(await launcher.waitForLaunch(botId)) };
  };
  const end = (error_code: string, outcome: 'completed' | 'failed', recorded_seconds = 0) => ({
    kind: 'end', outcome, error_code, error_message: `ended: ${error_code}`, recorded_seconds, waiting_room_seconds: 0, at: now(),
  });

  it('a bot with its own webhook_url: every live status, call_ended, then complete with a 2-hour mp4 link and the speakers, with x-service-api-key', async () => {
    const own = await receiver();
    const account = await receiver();
    const { api, apiKey } = await team(account.url);
    const { botId, bot } = await createLegacyBot(api, { webhook_url: own.url });
    for (const status of ['joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed']) {
      assert.equal((await bot.status(status)).status, 204);
    }
    const removed = request(t.url, 'DELETE', `/bots/${botId}`, { headers: { 'x-service-api-key': apiKey } });
    const leave = await bot.poll();
    assert.deepEqual(leave.body.requests.map((r: { kind: string }) => r.kind), ['leave']);
    await bot.answer({ id: leave.body.requests[0].id, ok: true });
    assert.deepEqual((await removed).body, { ok: true });
    await bot.status('call_ended');
    const recording = Buffer.from('pretend mp4 bytes');
    await bot.upload('recording.mp4', recording, 'video/mp4');
    await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp4', content_type: 'video/mp4', size_bytes: recording.length, at: now() });
    await bot.report({ kind: 'participants', participants: ['Alice', 'Bob'], speakers: ['Alice'], at: now() });
    await bot.report(end('API_REQUEST', 'completed', 12));

    const received = once(await own.waitFor((r) => r.some(isFinal)));
    assert.deepEqual(names(received), [
      'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed', 'call_ended', 'complete',
    ]);
    for (const r of received) {
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/hooks');
      assert.equal(r.headers['x-service-api-key'], apiKey, 'the key that created the bot');
      assert.match(r.headers['webhook-id']!, /^msg_[0-9a-f]{32}(_status)?$/);
      assert.equal(r.headers['webhook-signature'], undefined, 'a bot’s own URL has no secret to sign with');
      assert.deepEqual(Object.keys(r.body).sort(), ['data', 'event']);
      assert.equal(r.body.data.bot_id, botId);
    }
    const statuses = received.filter((r) => r.body.event === 'bot.status_change').map((r) => r.body.data.status);
    assert.deepEqual(Object.keys(statuses[0]).sort(), ['code', 'created_at']);
    assert.equal(statuses[3].code, 'in_call_recording');
    assert.equal(statuses[3].start_time, statuses[3].created_at);
    assert.ok(statuses.every((s: { created_at: string }) => !Number.isNaN(Date.parse(s.created_at))));

    const complete = received[received.length - 1]!.body.data;
    assert.deepEqual(Object.keys(complete).sort(), ['bot_id', 'end_reason', 'mp4', 'speakers']);
    assert.deepEqual(complete.speakers, ['Alice']);
    const expires = Number(new URL(complete.mp4).searchParams.get('expires'));
    assert.ok(Math.abs(expires * 1000 - (Date.now() + offsetMs) - 2 * 60 * 60 * 1000) < 60_000, 'valid for 2 hours from the attempt');
    const download = await fetch(complete.mp4);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), recording);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(account.received.length, 0, 'the team’s endpoints get nothing of a bot with its own webhook_url');
  });

  it('a bot without webhook_url: the team’s endpoints get its legacy events, signed as endpoints are', async () => {
    const account = await receiver();
    const { api, apiKey, secret } = await team(account.url);
    const { botId, bot } = await createLegacyBot(api);
    await bot.status('joining_call');
    await bot.report(end('BOT_NOT_ACCEPTED', 'failed'));
    const received = once(await account.waitFor((r) => r.some(isFinal)));
    assert.deepEqual(names(received), ['joining_call', 'bot_rejected', 'failed']);
    assert.deepEqual(received[2]!.body, { event: 'failed', data: { bot_id: botId, error: 'BotNotAccepted' } });
    for (const r of received) {
      assert.deepEqual(new Webhook(secret).verify(r.raw, r.headers), r.body);
      assert.equal(r.headers['x-service-api-key'], apiKey);
    }
    assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 3, 'one webhook-id per message');
  });

  it('why a bot ended comes before its final event, with the camel-case error strings', async () => {
    const own = await receiver();
    const { api } = await team((await receiver()).url);
    const cases: [string, 'completed' | 'failed', string[], Record<string, unknown>][] = [
      ['CANNOT_JOIN_MEETING', 'failed', ['joining_call', 'meeting_error', 'failed'], { error: 'CannotJoinMeeting' }],
      ['INVALID_MEETING_URL', 'failed', ['joining_call', 'invalid_meeting_url', 'failed'], { error: 'InvalidMeetingUrl' }],
      ['TIMEOUT_WAITING_TO_START', 'failed', ['joining_call', 'waiting_room_timeout', 'failed'], { error: 'TimeoutWaitingToStart' }],
      ['BOT_REMOVED', 'completed', ['joining_call', 'bot_removed', 'complete'], { mp4: null, speakers: [], end_reason: 'bot_removed' }],
    ];
    for (const [code, outcome, expected, finalData] of cases) {
      const { botId, bot } = await createLegacyBot(api, { webhook_url: own.url });
      await bot.status('joining_call');
      if (outcome === 'completed') await bot.status('in_call_recording');
      await bot.report(end(code, outcome, outcome === 'completed' ? 5 : 0));
      const received = once(await own.waitFor((r) => r.some((x) => x.body.data.bot_id === botId && isFinal(x)))).filter((r) => r.body.data.bot_id === botId);
      const seen = names(received).filter((n) => n !== 'in_call_recording');
      assert.deepEqual(seen, expected, code);
      assert.deepEqual(received[received.length - 1]!.body.data, { bot_id: botId, ...finalData }, code);
      if (code === 'CANNOT_JOIN_MEETING') {
        const status = received.find((r) => r.body.data.status?.code === 'meeting_error')!.body.data.status;
        assert.deepEqual({ ...status, created_at: undefined }, { code: 'meeting_error', created_at: undefined, error_message: 'ended: CANNOT_JOIN_MEETING', error_type: 'CANNOT_JOIN_MEETING' });
      }
    }
  });

  it('a failing receiver is retried with the same webhook-id through the same delivery log (events in the log), then delivered', async () => {
    const own = await receiver((i) => (i === 0 ? 503 : 200));
    const { api } = await team((await receiver()).url);
    const { botId, bot } = await createLegacyBot(api, { webhook_url: own.url });
    await bot.status('joining_call');
    const stream = `bot-webhook-delivery-${botId}-bot-${botId}`;
    const attempts = () => t.service.eventStore.readStream(stream);
    await readUntil(attempts, (events) => events.some((e) => e.type === 'WebhookDeliveryAttempted'));
    offsetMs += 6_000; // past the first wait of the account webhooks' schedule (5 s)
    const received = await own.waitFor((r) => r.length === 2);
    assert.deepEqual(names(received), ['joining_call', 'joining_call']);
    assert.equal(received[0]!.headers['webhook-id'], received[1]!.headers['webhook-id']);
    const log = await readUntil(attempts, (events) => events.some((e) => e.type === 'WebhookDelivered'));
    // Each attempt is claimed before it is sent (claim, send, record).
    assert.deepEqual(log.map((e) => e.type), [
      'WebhookMessageQueued', 'WebhookAttemptStarted', 'WebhookDeliveryAttempted', 'WebhookAttemptStarted', 'WebhookDeliveryAttempted', 'WebhookDelivered',
    ]);
    assert.deepEqual(log.filter((e) => e.type === 'WebhookDeliveryAttempted').map((e) => e.data.status_code), [503, 200]);
    assert.deepEqual(log[0]!.data.target, { kind: 'bot_webhook', bot_id: botId });
  });

  it('resend-webhook sends a legacy bot’s final event again to its own webhook_url, with the same webhook-id', async () => {
    const own = await receiver();
    const { api } = await team((await receiver()).url);
    const { botId, bot } = await createLegacyBot(api, { webhook_url: own.url });
    await bot.report(end('CANNOT_JOIN_MEETING', 'failed'));
    const first = (await own.waitFor((r) => r.some(isFinal))).find(isFinal)!;
    const resent = await api.post(`/v2/bots/${botId}/resend-webhook`);
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    const again = await own.waitFor((r) => r.filter(isFinal).length >= 2);
    const finals = again.filter(isFinal);
    assert.deepEqual(finals[1]!.body, first.body);
    assert.equal(finals[1]!.headers['webhook-id'], first.headers['webhook-id']);
  });

  it('a v2 bot of the same team keeps the v2 events (no call_ended, bot.completed)', async () => {
    const account = await receiver();
    const { api } = await team(account.url);
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'V2 Hooks' });
    const bot = asBot(await launcher.waitForLaunch(created.body.data.bot_id));
    await bot.status('joining_call');
    await bot.status('in_call_recording');
    await bot.status('call_ended');
    await bot.report(end('API_REQUEST', 'completed', 3));
    const received = once(await account.waitFor((r) => r.some((x) => x.body.event === 'bot.completed')));
    assert.deepEqual(received.map((r) => r.body.event), ['bot.status_change', 'bot.status_change', 'bot.completed']);
  });
});

describe('legacy webhooks of a bot removed before anything ran it', () => {
  it('DELETE /bots/{id}: call_ended, then failed BotRemoved', async () => {
    const t = await startTestService({ botSlots: 0, overrides: { webhookDelivery: { pollMs: 20, timeoutMs: 10_000 } } });
    const own = await new WebhookReceiver().start();
    try {
      const team = await createTeam(t.url, { tokens: 10 });
      const api = apiClient(t.url, team.api_key);
      const botId = (await api.post('/bots', { meeting_url: MEETING, bot_name: 'Never ran', webhook_url: own.url })).body.bot_id;
      const removed = await request(t.url, 'DELETE', `/bots/${botId}`, { headers: { 'x-service-api-key': team.api_key } });
      assert.deepEqual(removed.body, { ok: true });
      const received = once(await own.waitFor((r) => once(r).length === 2));
      assert.deepEqual(names(received), ['call_ended', 'failed']);
      assert.deepEqual(received[1]!.body, { event: 'failed', data: { bot_id: botId, error: 'BotRemoved' } });
      assert.ok(received[0]!.globalSeq < received[1]!.globalSeq);
    } finally {
      await own.stop();
      await t.stop();
    }
  });
});
