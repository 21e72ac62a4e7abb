import assert from 'node:assert/strict';
import type { ServiceOverrides } from '../../src/service';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhook delivery slots are shared by every team: a team with a slow endpoint or thousands of messages
 * waiting gets its share and its turn, never the others'. Shown by the order in which receivers are served.
 */
describe('webhook delivery is fair between teams', function () {
  this.timeout(90_000);
  const receivers: WebhookReceiver[] = [];
  const services: TestService[] = [];
  after(async () => {
    for (const r of receivers) r.releaseHanging();
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all(receivers.map((r) => r.stop()));
  });

  const start = async (launcher: ScriptedLauncher, webhookDelivery: ServiceOverrides['webhookDelivery']) => {
    const t = await startTestService({ botSlots: 100, overrides: { launcher, webhookDelivery } });
    services.push(t);
    return t;
  };
  const receiver = async (answer?: ConstructorParameters<typeof WebhookReceiver>[0]) => {
    const r = await new WebhookReceiver(answer).start();
    receivers.push(r);
    return r;
  };
  /** A team whose endpoint gets its bots' bot.failed; `fail(n)` ends n bots of it at once (their processes die). */
  const teamWithEndpoint = async (t: TestService, launcher: ScriptedLauncher, url: string) => {
    const team = await createTeam(t.url, { tokens: 100 });
    const api = apiClient(t.url, team.api_key);
    assert.equal((await api.post('/v2/webhooks', { url, events: ['bot.failed'] })).status, 201);
    return {
      fail: async (n: number) => {
        for (let i = 0; i < n; i++) {
          const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: `Bot ${i}` });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          (await launcher.waitForLaunch(created.body.data.bot_id)).exit({ signal: 'SIGKILL' });
        }
      },
    };
  };

  it('a team whose endpoint hangs holds at most its share of the slots: another team’s message goes out meanwhile', async () => {
    const launcher = new ScriptedLauncher();
    const t = await start(launcher, { pollMs: 20, timeoutMs: 120_000, total: 4, perTeam: 2, perTarget: 4 });
    const hanging = await receiver(() => 'hang');
    const other = await receiver();
    const slow = await teamWithEndpoint(t, launcher, hanging.url);
    const fast = await teamWithEndpoint(t, launcher, other.url);

    await slow.fail(6);
    await hanging.waitFor((r) => r.length === 2);
    await fast.fail(1);
    await other.waitFor((r) => r.length === 1);
    assert.equal(hanging.received.length, 2, 'the hanging team never had more than its two slots');
    assert.ok(hanging.received.every((r) => r.globalSeq < other.received[0]!.globalSeq), 'still unanswered when the other team was served');
  });

  it('teams take turns: with one slot, three teams’ waiting messages go out A, B, C, A, B, C…, not one team’s backlog first', async () => {
    const launcher = new ScriptedLauncher();
    // Nothing is sent while the messages are queued (no slot), so that all of them wait when delivery starts.
    let t = await start(launcher, { pollMs: 20, total: 0 });
    const shared = await receiver();
    const teams = [];
    for (let i = 0; i < 3; i++) teams.push(await teamWithEndpoint(t, launcher, `${shared.url}?team=${i}`));
    for (const team of teams) await team.fail(5);
    const pending = () => t.service.readStore.count('webhook_queues', { pending: true });
    assert.equal(await readUntil(pending, (n) => n === 15), 15);

    const before = t;
    t = await t.restart({ overrides: { launcher, webhookDelivery: { pollMs: 20, total: 1, perTeam: 1, perTarget: 4 } } });
    services.splice(services.indexOf(before), 1, t);
    const arrived = (await shared.waitFor((r) => r.length === 15)).map((r) => new URL(r.path, 'http://x').searchParams.get('team'));
    for (let round = 0; round < 5; round++) {
      assert.deepEqual(new Set(arrived.slice(3 * round, 3 * round + 3)).size, 3, `round ${round + 1} serves every team once: ${arrived.join(' ')}`);
    }
  });
});
