import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { asBot } from '../support/as-bot';
import { readUntil } from '../support/read-until';
import type { BotJob } from '../../contract/bot-contract';
import type { LaunchedBot } from '../../src/adapters/bot-launcher/port';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

const MINUTE = 60_000;

/** A launcher that cannot start bots named "Unlaunchable", as spawn fails on a job too large for it. */
class SometimesFailingLauncher extends ScriptedLauncher {
  override launch(job: BotJob, connection: { serviceUrl: string; botToken: string }): LaunchedBot {
    if (job.bot_name === 'Unlaunchable') throw new Error('spawn E2BIG');
    return super.launch(job, connection);
  }
}

describe('webhook delivery: from the event log to the team’s receivers', () => {
  let t: TestService;
  let launcher: SometimesFailingLauncher;
  /** the service's clock: real time, moved ahead by the tests that wait for a retry */
  let offsetMs = 0;
  const receivers: WebhookReceiver[] = [];

  before(async () => {
    launcher = new SometimesFailingLauncher();
    t = await startTestService({
      botSlots: 50,
      clock: () => new Date(Date.now() + offsetMs),
      overrides: { launcher, webhookDelivery: { pollMs: 20, timeoutMs: 1500 }, webhookJitter: () => 0.5 },
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

  const teamWithEndpoint = async (url: string, body: Record<string, unknown> = {}) => {
    const team = await createTeam(t.url, { tokens: 100 });
    const api = apiClient(t.url, team.api_key);
    const endpoint = await api.post('/v2/webhooks', { url, ...body });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    return { api, apiKey: team.api_key, endpoint: endpoint.body.data as { webhook_id: string; secret: string } };
  };

  /** A bot run by a stand-in process that speaks the internal API: joins, records, stores a recording, ends. */
  const runBot = async (api: ReturnType<typeof apiClient>, body: Record<string, unknown> = {}, end = { outcome: 'completed', error_code: 'API_REQUEST' }) => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Webhook Bot', extra: { deal: 42 }, ...body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId = created.body.data.bot_id as string;
    const bot = asBot(await launcher.waitForLaunch(botId));
    for (const status of ['joining_call', 'in_waiting_room', 'in_call_recording']) assert.equal((await bot.status(status)).status, 204);
    const recording = Buffer.from('not really an mp4');
    assert.equal((await bot.upload('recording.mp4', recording, 'video/mp4')).status, 204);
    const at = () => new Date(Date.now() + offsetMs).toISOString();
    await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp4', content_type: 'video/mp4', size_bytes: recording.length, at: at() });
    await bot.report({ kind: 'participants', participants: ['Alice'], speakers: ['Alice'], at: at() });
    await bot.report({ kind: 'end', ...end, error_message: 'done', recorded_seconds: 42, waiting_room_seconds: 1, at: at() });
    return botId;
  };

  /** A bot whose process dies at once: it ends failed with FORCE_KILLED. */
  const crashBot = async (api: ReturnType<typeof apiClient>, bot_name = 'Crasher') => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    (await launcher.waitForLaunch(created.body.data.bot_id)).exit({ signal: 'SIGKILL' });
    return created.body.data.bot_id as string;
  };

  const final = (r: readonly ReceivedWebhook[]) => r.some((x) => x.body.event === 'bot.completed' || x.body.event === 'bot.failed');

  it('sends every status change and the final event, in order, signed (standardwebhooks verifies it), with the creating key and extra', async () => {
    const rx = await receiver();
    const { api, apiKey, endpoint } = await teamWithEndpoint(rx.url);
    const botId = await runBot(api);
    const received = await rx.waitFor(final);

    assert.deepEqual(rx.events(), ['bot.status_change', 'bot.status_change', 'bot.status_change', 'bot.completed']);
    assert.deepEqual(received.slice(0, 3).map((r) => r.body.data.status.code), ['joining_call', 'in_waiting_room', 'in_call_recording']);
    const verifier = new Webhook(endpoint.secret);
    for (const r of received) {
      assert.equal(r.method, 'POST');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['x-service-api-key'], apiKey, 'the key that created the bot');
      assert.deepEqual(verifier.verify(r.raw, r.headers), r.body, 'a valid Standard Webhooks signature over the exact bytes');
      assert.deepEqual(r.body.data.extra, { deal: 42 });
      assert.equal(r.body.data.bot_id, botId);
    }
    assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 4, 'one webhook-id per event');
    assert.equal(received[2]!.body.data.status.start_time, received[2]!.body.data.status.created_at);

    const completed = received[3]!.body.data;
    assert.equal(completed.error_code, 'API_REQUEST');
    assert.equal(completed.duration_seconds, 42);
    assert.deepEqual([completed.participants, completed.speakers], [['Alice'], ['Alice']]);
    assert.ok(completed.joined_at && completed.exited_at);
    const [recording] = completed.artifacts;
    assert.equal(recording.artifact_type, 'recording');
    const download = await fetch(recording.url);
    assert.equal(download.status, 200, 'a working link, minted at the attempt');
    assert.equal(await download.text(), 'not really an mp4');
    assert.ok(Date.parse(recording.url_expires_at) - Date.now() > 119 * MINUTE, 'valid for 2 hours from the attempt');

    assert.throws(() => new Webhook(endpoint.secret.replace(/^whsec_./, 'whsec_A')).verify(received[0]!.raw, received[0]!.headers), /No matching signature/);
  });

  it('an endpoint gets only the kinds it subscribed to, and only events after it was created', async () => {
    const rx = await receiver();
    const { api } = await teamWithEndpoint(rx.url, { events: ['bot.completed'] });
    const botId = await runBot(api);
    await rx.waitFor(final);
    assert.deepEqual(rx.events(), ['bot.completed']);

    const late = await receiver();
    assert.equal((await api.post('/v2/webhooks', { url: late.url })).status, 201);
    const next = await runBot(api);
    await rx.waitFor((r) => r.length === 2);
    await late.waitFor(final);
    assert.ok(late.received.every((r) => r.body.data.bot_id === next), `nothing about ${botId}, which ended before the endpoint existed`);
  });

  it('a switched-off endpoint gets nothing; a team’s events never reach another team', async () => {
    const off = await receiver();
    const { api, endpoint } = await teamWithEndpoint(off.url);
    await api.patch(`/v2/webhooks/${endpoint.webhook_id}`, { enabled: false });
    const on = await receiver();
    const other = await teamWithEndpoint(on.url);
    await runBot(api);
    await runBot(other.api);
    await on.waitFor(final);
    assert.equal(off.received.length, 0);
    assert.equal(on.events().length, 4, 'only its own bot');
  });

  it('the final event goes out for every end: a leave while running, a crash, a bot that could not start', async () => {
    const rx = await receiver();
    const { api } = await teamWithEndpoint(rx.url);
    const left = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Leaver' });
    const leaver = asBot(await launcher.waitForLaunch(left.body.data.bot_id));
    await leaver.status('joining_call');
    assert.equal((await api.post(`/v2/bots/${left.body.data.bot_id}/leave`)).status, 200);
    // the bot answers its leave as the runtime does: a leave before recording
    await leaver.report({ kind: 'end', outcome: 'failed', error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'left', recorded_seconds: 0, waiting_room_seconds: 0, at: new Date().toISOString() });
    const crashed = await crashBot(api);
    const unlaunchable = (await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Unlaunchable' })).body.data.bot_id;
    const received = await rx.waitFor((r) => r.filter((x) => x.body.event === 'bot.failed').length === 3);
    const codes = Object.fromEntries(received.filter((r) => r.body.event === 'bot.failed').map((r) => [r.body.data.bot_id, r.body.data.error_code]));
    assert.deepEqual(codes, { [left.body.data.bot_id]: 'EXITING_MEETING_BEFORE_RECORD', [crashed]: 'FORCE_KILLED', [unlaunchable]: 'INTERNAL_ERROR' });
    assert.ok(received.every((r) => r.body.event !== 'bot.failed' || r.body.data.error_message.length > 0));
  });

  it('a queued bot left before anything ran it gets its final event too', async () => {
    const queued = await startTestService({ botSlots: 0 });
    const rx = await receiver();
    try {
      const team = await createTeam(queued.url);
      const api = apiClient(queued.url, team.api_key);
      await api.post('/v2/webhooks', { url: rx.url });
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Never Ran' });
      assert.equal((await api.post(`/v2/bots/${created.body.data.bot_id}/leave`)).status, 200);
      const [failed] = await rx.waitFor((r) => r.length === 1);
      assert.deepEqual([failed!.body.event, failed!.body.data.error_code], ['bot.failed', 'EXITING_MEETING_BEFORE_RECORD']);
    } finally {
      await queued.stop();
    }
  });

  it('a per-bot callback gets only that bot’s final event, with x-callback-secret and a signature keyed by the secret', async () => {
    const rx = await receiver();
    const team = await createTeam(t.url, { tokens: 10 });
    const api = apiClient(t.url, team.api_key);
    const botId = await runBot(api, { callback_enabled: true, callback_config: { url: rx.url, method: 'PUT', secret: 'my-callback-secret' } });
    const received = await rx.waitFor(final);
    assert.equal(received.length, 1);
    const [callback] = received;
    assert.equal(callback!.method, 'PUT');
    assert.equal(callback!.body.event, 'bot.completed');
    assert.equal(callback!.body.data.bot_id, botId);
    assert.equal(callback!.headers['x-callback-secret'], 'my-callback-secret');
    assert.equal(callback!.headers['x-service-api-key'], team.api_key);
    const verifier = new Webhook(new TextEncoder().encode('my-callback-secret'), { format: 'raw' });
    assert.deepEqual(verifier.verify(callback!.raw, callback!.headers), callback!.body);
  });

  it('resend-webhook sends the final event again (same webhook-id, fresh links); retry-callback may name another URL', async () => {
    const rx = await receiver();
    const { api } = await teamWithEndpoint(rx.url, { events: ['bot.completed'] });
    const callbackRx = await receiver();
    const botId = await runBot(api, { callback_enabled: true, callback_config: { url: callbackRx.url } });
    await rx.waitFor(final);
    await callbackRx.waitFor(final);

    const resent = await api.post(`/v2/bots/${botId}/resend-webhook`);
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    assert.equal(resent.body.data.endpoints, 1);
    await rx.waitFor((r) => r.length === 2);
    assert.equal(rx.received[1]!.headers['webhook-id'], rx.received[0]!.headers['webhook-id']);
    assert.deepEqual(rx.received[1]!.body.data.participants, rx.received[0]!.body.data.participants);

    const elsewhere = await receiver();
    const retried = await api.post(`/v2/bots/${botId}/retry-callback`, { url: elsewhere.url, secret: 'new-secret' });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    const [moved] = await elsewhere.waitFor(final);
    assert.equal(moved!.headers['x-callback-secret'], 'new-secret');
    assert.equal(moved!.body.data.bot_id, botId);
    assert.equal(callbackRx.received.length, 1, 'the bot’s own callback URL was not called again');
  });

  it('re-delivery is refused while a bot runs (409), without a target (400), and for another team’s bot (404)', async () => {
    const team = await createTeam(t.url, { tokens: 10 });
    const api = apiClient(t.url, team.api_key);
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Running' });
    const running = created.body.data.bot_id;
    await launcher.waitForLaunch(running);
    assert.equal((await api.post(`/v2/bots/${running}/resend-webhook`)).status, 409);
    assert.equal((await api.post(`/v2/bots/${running}/retry-callback`)).status, 409);

    const ended = await crashBot(api, 'Done');
    await readUntil(() => api.get(`/v2/bots/${ended}`), (r) => r.body.data.status === 'failed');
    const noEndpoint = await api.post(`/v2/bots/${ended}/resend-webhook`);
    assert.deepEqual([noEndpoint.status, noEndpoint.body.code], [400, 'FST_ERR_NO_WEBHOOK_ENDPOINT']);
    const noCallback = await api.post(`/v2/bots/${ended}/retry-callback`);
    assert.deepEqual([noCallback.status, noCallback.body.code], [400, 'FST_ERR_NO_CALLBACK']);

    const stranger = apiClient(t.url, (await createTeam(t.url)).api_key);
    assert.equal((await stranger.post(`/v2/bots/${ended}/resend-webhook`)).status, 404);
  });

  it('after a rotation, attempts are signed with the new secret (and the old one during its day of grace)', async () => {
    const rx = await receiver();
    const { api, endpoint } = await teamWithEndpoint(rx.url, { events: ['bot.failed'] });
    const rotated = (await api.post(`/v2/webhooks/${endpoint.webhook_id}/rotate-secret`)).body.data.secret as string;
    await crashBot(api, 'Rotated');
    const [r] = await rx.waitFor((x) => x.length === 1);
    assert.deepEqual(new Webhook(rotated).verify(r!.raw, r!.headers), r!.body);
    assert.deepEqual(new Webhook(endpoint.secret).verify(r!.raw, r!.headers), r!.body, 'the old secret still verifies during the grace day');
    assert.equal(r!.headers['webhook-signature']!.split(' ').length, 2);
  });

  describe('retries (the service’s clock is moved past each wait)', () => {
    it('a receiver answering 500 twice then 200 gets the event three times with one webhook-id; the delivery log shows the three attempts', async () => {
      const rx = await receiver((i) => (i < 2 ? 500 : 200));
      const { api, endpoint } = await teamWithEndpoint(rx.url, { events: ['bot.failed'] });
      await crashBot(api);

      // The clock moves only once the attempt is recorded: its retry time is counted from the recorded time.
      const attemptsRecorded = (n: number) =>
        readUntil(() => api.get(`/v2/webhooks/${endpoint.webhook_id}/deliveries`), (l) => l.body.data.deliveries.length === n);
      await attemptsRecorded(1);
      offsetMs += 6_000; // past the 5 s retry
      await attemptsRecorded(2);
      offsetMs += 6 * MINUTE; // past the 5 min retry
      const received = await rx.waitFor((r) => r.length === 3);
      assert.deepEqual(received.map((r) => r.body.event), ['bot.failed', 'bot.failed', 'bot.failed']);
      assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 1, 'the same webhook-id on every retry');
      assert.equal(received[0]!.body.data.error_code, 'FORCE_KILLED');

      const log = await attemptsRecorded(3);
      const deliveries = log.body.data.deliveries;
      assert.deepEqual(deliveries.map((d: { attempt: number }) => d.attempt), [3, 2, 1], 'newest first');
      assert.deepEqual(deliveries.map((d: { status_code: number }) => d.status_code), [200, 500, 500]);
      assert.deepEqual(deliveries.map((d: { succeeded: boolean }) => d.succeeded), [true, false, false]);
      assert.ok(deliveries.every((d: { duration_ms: number; message_id: string }) => d.duration_ms >= 0 && d.message_id === received[0]!.headers['webhook-id']));
      assert.equal(deliveries[0].next_attempt_at, null);
      assert.ok(deliveries[2].next_attempt_at, 'a failed attempt says when the next is due');

      const page = await api.get(`/v2/webhooks/${endpoint.webhook_id}/deliveries?limit=2`);
      assert.equal(page.body.data.deliveries.length, 2);
      const rest = await api.get(`/v2/webhooks/${endpoint.webhook_id}/deliveries?limit=2&cursor=${page.body.data.next_cursor}`);
      assert.deepEqual(rest.body.data.deliveries.map((d: { attempt: number }) => d.attempt), [1]);
      assert.equal(rest.body.data.next_cursor, null);
    });

    it('a receiver that hangs past the timeout is retried, and the log says why the first attempt failed', async () => {
      const rx = await receiver((i) => (i === 0 ? 'hang' : 204));
      const { api, endpoint } = await teamWithEndpoint(rx.url, { events: ['bot.failed'] });
      await crashBot(api);
      const log = await readUntil(() => api.get(`/v2/webhooks/${endpoint.webhook_id}/deliveries`), (l) => l.body.data.deliveries.length === 1);
      assert.match(log.body.data.deliveries[0].error, /no answer within 1500 ms/);
      assert.equal(log.body.data.deliveries[0].status_code, null);
      offsetMs += 6_000;
      await rx.waitFor((r) => r.length === 2);
      assert.equal(rx.received[1]!.headers['webhook-id'], rx.received[0]!.headers['webhook-id']);
    });
  });
});
