import assert from 'node:assert/strict';
import { freePort } from '../support/free-port';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const DAY = 24 * 60 * 60 * 1000;

describe('a failing or slow endpoint holds back nobody else', () => {
  let t: TestService;
  let launcher: ScriptedLauncher;
  const receivers: WebhookReceiver[] = [];

  before(async () => {
    launcher = new ScriptedLauncher();
    // The slow endpoint never answers within the test: only arrival order can tell who waited for whom.
    t = await startTestService({ botSlots: 100, overrides: { launcher, webhookDelivery: { pollMs: 20, timeoutMs: 120_000 } } });
  });
  after(async () => {
    for (const r of receivers) r.releaseHanging();
    await t.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  const crashBots = async (api: ReturnType<typeof apiClient>, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: `Bot ${i}` });
      assert.equal(created.status, 201);
      ids.push(created.body.data.bot_id);
      (await launcher.waitForLaunch(created.body.data.bot_id)).exit({ signal: 'SIGKILL' });
    }
    return ids;
  };

  it('while one endpoint hangs on every request, another endpoint of the same team and another team get all of theirs', async () => {
    const hanging = await new WebhookReceiver(() => 'hang').start();
    const sameTeamOther = await new WebhookReceiver().start();
    const otherTeam = await new WebhookReceiver().start();
    receivers.push(hanging, sameTeamOther, otherTeam);

    const slowTeam = await createTeam(t.url, { tokens: 100 });
    const slow = apiClient(t.url, slowTeam.api_key);
    await slow.post('/v2/webhooks', { url: hanging.url, events: ['bot.failed'] });
    await slow.post('/v2/webhooks', { url: sameTeamOther.url, events: ['bot.failed'] });
    const fastTeam = await createTeam(t.url, { tokens: 100 });
    const fast = apiClient(t.url, fastTeam.api_key);
    await fast.post('/v2/webhooks', { url: otherTeam.url, events: ['bot.failed'] });

    // The slow team's bots end first: their messages to the hanging endpoint are in flight before the others exist.
    const slowBots = await crashBots(slow, 10);
    await hanging.waitFor((r) => r.length >= 1);
    const fastBots = await crashBots(fast, 10);

    await otherTeam.waitFor((r) => r.length === 10);
    await sameTeamOther.waitFor((r) => r.length === 10);
    assert.deepEqual(new Set(otherTeam.received.map((r) => r.body.data.bot_id)), new Set(fastBots));
    assert.deepEqual(new Set(sameTeamOther.received.map((r) => r.body.data.bot_id)), new Set(slowBots));
    // Every request the hanging endpoint got is still unanswered: nobody waited for it.
    assert.ok(hanging.received.length >= 1 && hanging.received.length <= 4, `at most 4 attempts in flight to one endpoint (${hanging.received.length})`);
    const lastArrival = Math.max(...otherTeam.received.map((r) => r.globalSeq), ...sameTeamOther.received.map((r) => r.globalSeq));
    assert.ok(hanging.received.every((r) => r.globalSeq < lastArrival), 'the hanging requests came first, and were passed by all the others');
  });
});

describe('an endpoint failing for 5 days without a success is disabled', () => {
  it('after 5 days of refused connections the endpoint turns off, its pending messages are abandoned, and turning it on again starts afresh', async () => {
    let offsetMs = 0;
    const launcher = new ScriptedLauncher();
    const t = await startTestService({
      botSlots: 10,
      clock: () => new Date(Date.now() + offsetMs),
      overrides: { launcher, webhookDelivery: { pollMs: 20 }, webhookJitter: () => 0.5 },
    });
    try {
      const team = await createTeam(t.url, { tokens: 100 });
      const api = apiClient(t.url, team.api_key);
      const endpoint = (await api.post('/v2/webhooks', { url: `http://127.0.0.1:${await freePort()}/hooks`, events: ['bot.failed'] })).body.data;
      const deliveries = () => api.get(`/v2/webhooks/${endpoint.webhook_id}/deliveries?limit=100`);
      const crash = async () => {
        const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Crasher' });
        (await launcher.waitForLaunch(created.body.data.bot_id)).exit({ signal: 'SIGKILL' });
      };

      await crash();
      const first = await readUntil(deliveries, (d) => d.body.data.deliveries.length === 1);
      assert.match(first.body.data.deliveries[0].error, /ECONNREFUSED/);
      assert.ok((await api.get(`/v2/webhooks/${endpoint.webhook_id}`)).body.data.failing_since);

      offsetMs += 4 * DAY;
      await crash();
      const beforeFive = await readUntil(deliveries, (d) => d.body.data.deliveries.length >= 3);
      assert.ok(beforeFive.body.data.deliveries.length >= 3, 'both messages were tried again');
      assert.equal((await api.get(`/v2/webhooks/${endpoint.webhook_id}`)).body.data.enabled, true, 'four days are not enough');

      offsetMs += DAY + 60_000;
      const off = await readUntil(() => api.get(`/v2/webhooks/${endpoint.webhook_id}`), (r) => r.body.data.enabled === false);
      assert.equal(off.body.data.enabled, false);
      assert.equal(off.body.data.disabled_reason, 'failing_for_5_days');

      // Whatever was still pending for it is abandoned, and nothing more is tried.
      const abandoned = await readUntil(
        () => t.service.eventStore.readAll({}).then((all) => all.filter((e) => e.type === 'WebhookDeliveryAbandoned')),
        (events) => events.length === 2,
      );
      assert.deepEqual(abandoned.map((e) => e.data.reason), ['endpoint_disabled', 'endpoint_disabled']);
      const triedWhenOff = (await deliveries()).body.data.deliveries.length;
      await crash();
      offsetMs += DAY;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await deliveries()).body.data.deliveries.length, triedWhenOff, 'a disabled endpoint gets no new message');

      const on = await api.patch(`/v2/webhooks/${endpoint.webhook_id}`, { enabled: true });
      assert.deepEqual([on.body.data.enabled, on.body.data.disabled_reason, on.body.data.failing_since], [true, null, null]);
    } finally {
      await t.stop();
    }
  });
});
