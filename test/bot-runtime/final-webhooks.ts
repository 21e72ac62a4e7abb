import assert from 'node:assert/strict';
import type { BotReport, EndReport } from '../../contract/bot-contract';
import { asBot } from '../support/as-bot';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Carries what a real bot reported in an end-to-end test through the service's internal API, as that
 * bot would have, and checks that the team's webhook endpoint receives the bot's final event with the
 * bot's own error code and the team's `extra`.
 */
export class FinalWebhookCheck {
  private t: TestService | null = null;
  private readonly launcher = new ScriptedLauncher();
  private readonly receiver = new WebhookReceiver();
  private api: ReturnType<typeof apiClient> | null = null;
  checked = 0;

  async start(): Promise<void> {
    this.t = await startTestService({ botSlots: 100, overrides: { launcher: this.launcher, webhookDelivery: { pollMs: 20 } } });
    await this.receiver.start();
    const team = await createTeam(this.t.url, { tokens: 100, daily_bot_cap: 1000 });
    this.api = apiClient(this.t.url, team.api_key);
    assert.equal((await this.api.post('/v2/webhooks', { url: this.receiver.url, events: ['bot.completed', 'bot.failed'] })).status, 201);
  }

  async check(reports: readonly BotReport[]): Promise<void> {
    const end = reports.find((r): r is EndReport => r.kind === 'end');
    if (!end || !this.api) return;
    const created = await this.api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Replayed', extra: { replay: this.checked } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId = created.body.data.bot_id as string;
    const bot = asBot(await this.launcher.waitForLaunch(botId));
    for (const report of reports) {
      const answer = await bot.report(report);
      assert.equal(answer.status, 204, `${JSON.stringify(report)} -> ${JSON.stringify(answer.body)}`);
    }
    const received = await this.receiver.waitFor((r) => r.some((x) => x.body.data.bot_id === botId));
    const final = received.find((x) => x.body.data.bot_id === botId)!;
    assert.equal(final.body.event, end.outcome === 'completed' ? 'bot.completed' : 'bot.failed');
    assert.equal(final.body.data.error_code, end.error_code, 'the final webhook carries the bot’s own end code');
    assert.deepEqual(final.body.data.extra, { replay: this.checked });
    this.checked += 1;
  }

  async stop(): Promise<void> {
    await this.t?.stop();
    await this.receiver.stop();
  }
}
