import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { handleBotCommand } from '../../src/commands/bot-commands';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { readUntil } from '../support/read-until';
import { runScriptedMeeting, type ScriptedMeeting } from '../support/scripted-bot-run';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const MEETING = 'https://meet.google.com/xyz-pqrs-tuv';
const MEETING_CODE = 'xyz-pqrs-tuv';
const MEETING_OF_ALICE: ScriptedMeeting = {
  participants: ['Alice Martin', 'Bob Durand'],
  speakers: ['Alice Martin'],
  chat: [{ sender_name: 'Alice Martin', text: 'Call me at +33 6 12 34 56 78' }],
  recordedSeconds: 42,
};
/** Every personal value of the bot: none may be read anywhere once its data is deleted. */
const PERSONAL = ['Alice', 'alice@example.com', MEETING_CODE, 'Bob Durand', '+33 6 12', 'Hello everyone', 'acme-alice'];

describe("deleting a bot's data (v2 DELETE /v2/bots/{id}/delete-data, legacy POST /bots/{id}/delete_data)", function () {
  this.timeout(60_000);
  let t: TestService;
  let launcher: ScriptedLauncher;
  let receiver: WebhookReceiver;

  before(async () => {
    launcher = new ScriptedLauncher();
    receiver = await new WebhookReceiver().start();
    t = await startTestService({ botSlots: 10, overrides: { launcher, webhookDelivery: { pollMs: 20, timeoutMs: 5000 } } });
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  const newTeam = async () => {
    const team = await createTeam(t.url, { tokens: 50 });
    const api = apiClient(t.url, team.api_key);
    const endpoint = await api.post('/v2/webhooks', { url: receiver.url });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    return { ...team, api, endpointId: endpoint.body.data.webhook_id as string };
  };
  /** A bot of Alice's meeting through the legacy API (every personal field it can carry), run to its end. */
  const aliceBot = async (api: ReturnType<typeof apiClient>) => {
    const created = await api.post('/bots', {
      meeting_url: MEETING, bot_name: "Alice Martin's notetaker", entry_message: 'Hello everyone', extra: { customer: 'alice@example.com' },
      deduplication_key: 'acme-alice', speech_to_text: 'Default', webhook_url: receiver.url,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const botId: string = created.body.bot_id;
    await runScriptedMeeting(await launcher.waitForLaunch(botId), MEETING_OF_ALICE);
    // Its transcription (the scripted audio is not speech) ends before its data can be deleted.
    await readUntil(async () => (await api.get(`/v2/bots/${botId}/status`)).body.data, (s) => s.transcription_status === 'error');
    return botId;
  };
  const artifactFolder = (botId: string) => path.join(t.dataDir, 'artifacts', botId);
  /** Everything the API shows of the bot, as text. */
  const everythingShown = async (api: ReturnType<typeof apiClient>, botId: string, endpointId: string) =>
    JSON.stringify(
      await Promise.all(
        [
          `/v2/bots/${botId}`, `/v2/bots/${botId}/events`, `/v2/bots/${botId}/status`, `/v2/bots/${botId}/screenshots`, '/v2/bots',
          `/bots/meeting_data?bot_id=${botId}`, '/bots/bots_with_metadata', `/bots/${botId}/screenshots`, `/v2/webhooks/${endpointId}/deliveries`,
        ].map(async (p) => (await api.get(p)).body),
      ),
    );

  it('refuses a bot that has not ended with 409 in the envelope, and another team\'s bot with 404', async () => {
    const { api } = await newTeam();
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Still here' });
    const botId = created.body.data.bot_id;
    for (const answer of [await api.delete(`/v2/bots/${botId}/delete-data`), await api.post(`/bots/${botId}/delete_data`)]) {
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.code, 'FST_ERR_BOT_STATUS');
      assert.match(answer.body.message, /once the bot has ended \(status: queued\)/);
    }
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.bot_name, 'Still here', 'nothing was deleted');
    const stranger = apiClient(t.url, (await createTeam(t.url)).api_key);
    assert.equal((await stranger.delete(`/v2/bots/${botId}/delete-data`)).status, 404);
  });

  it('Full Access only; delete_from_provider=true is refused until the service can ask a provider', async () => {
    const { api, team_id } = await newTeam();
    const botId = await aliceBot(api);
    const sending = apiClient(t.url, (await adminClient(t.url).post(`/admin/teams/${team_id}/api-keys`, { permission: 'sending' })).body.data.api_key);
    assert.equal((await sending.delete(`/v2/bots/${botId}/delete-data`)).status, 403);
    assert.equal((await sending.post(`/bots/${botId}/delete_data`)).status, 403);
    const fromProvider = await api.delete(`/v2/bots/${botId}/delete-data?delete_from_provider=true`);
    assert.equal(fromProvider.status, 400);
    assert.equal(fromProvider.body.code, 'FST_ERR_OPTION_NOT_AVAILABLE');
    assert.match(fromProvider.body.message, /^querystring\/delete_from_provider is not available yet/);
    assert.ok(existsSync(artifactFolder(botId)), 'nothing was deleted');
  });

  it('erases every artifact and hides every personal field from every answer; the audit, the charges and the deliveries stay', async () => {
    const { api, team_id, endpointId } = await newTeam();
    const botId = await aliceBot(api);
    assert.ok(readdirSync(artifactFolder(botId), { recursive: true }).length >= 7, 'the recording, screenshots, chat, participants, log and transcript are stored');
    const shownBefore = await everythingShown(api, botId, endpointId);
    for (const text of ['Alice', MEETING_CODE, 'Bob Durand']) assert.ok(shownBefore.includes(text), `${text} shown before`);
    const auditBefore = (await api.get(`/v2/bots/${botId}/events`)).body.data.events as { type: string; recorded_at: string }[];
    const ledgerBefore = (await adminClient(t.url).get(`/admin/teams/${team_id}`)).body.data;
    const deliveriesBefore = (await api.get(`/v2/webhooks/${endpointId}/deliveries?limit=100`)).body.data.deliveries;

    const deleted = await api.delete(`/v2/bots/${botId}/delete-data`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.success, true);
    assert.equal(deleted.body.data.message, "The bot's data was deleted");
    assert.equal(deleted.body.data.artifacts_deleted, true);
    assert.ok(deleted.body.data.data_deleted_at);

    assert.equal(existsSync(artifactFolder(botId)), false, 'no object of the bot is left in the store');
    const shownAfter = await everythingShown(api, botId, endpointId);
    for (const text of PERSONAL) assert.ok(!shownAfter.includes(text), `"${text}" is shown nowhere`);

    const details = (await api.get(`/v2/bots/${botId}`)).body.data;
    assert.equal(details.data_deleted_at, deleted.body.data.data_deleted_at, 'the record says that its data was deleted, and when');
    assert.equal(details.artifacts_deleted, true);
    assert.ok(details.artifacts.length >= 7 && details.artifacts.every((a: { status: string; url: string | null }) => a.status === 'deleted' && a.url === null));
    assert.equal(details.status, 'completed');
    const audit = (await api.get(`/v2/bots/${botId}/events`)).body.data.events as { type: string; recorded_at: string }[];
    assert.deepEqual(audit.slice(0, auditBefore.length).map((e) => [e.type, e.recorded_at]), auditBefore.map((e) => [e.type, e.recorded_at]), 'what happened, and when, stays');
    assert.deepEqual(audit.slice(auditBefore.length).map((e) => e.type), ['BotDataDeleted', 'BotArtifactsErased']);
    const ledgerAfter = (await adminClient(t.url).get(`/admin/teams/${team_id}`)).body.data;
    assert.deepEqual([ledgerAfter.balance, ledgerAfter.reserved], [ledgerBefore.balance, ledgerBefore.reserved], 'the charges stay');
    const deliveriesAfter = (await api.get(`/v2/webhooks/${endpointId}/deliveries?limit=100`)).body.data.deliveries;
    assert.deepEqual(deliveriesAfter, deliveriesBefore, 'the delivery log stays');
    const meetingData = (await api.get(`/bots/meeting_data?bot_id=${botId}`)).body;
    assert.deepEqual([meetingData.mp4, meetingData.bot_data.transcripts, meetingData.bot_data.bot.data_deleted_at], ['', [], details.data_deleted_at]);

    // A resend of its final event carries nothing personal either.
    const before = receiver.received.length;
    assert.equal((await api.post(`/v2/bots/${botId}/resend-webhook`)).status, 200);
    const resent = await readUntil(async () => receiver.received.slice(before), (r) => r.length > 0);
    assert.ok(resent.length > 0);
    for (const text of PERSONAL) assert.ok(!JSON.stringify(resent.map((r) => r.body)).includes(text), `"${text}" is not sent again: ${JSON.stringify(resent.map((r) => [r.headers["webhook-id"], r.body]))}`);

    // Rebuilt read models, and a restart, show nothing more.
    assert.equal((await adminClient(t.url).post('/admin/rebuild-projections')).status, 200);
    const rebuilt = await everythingShown(api, botId, endpointId);
    for (const text of PERSONAL) assert.ok(!rebuilt.includes(text), `"${text}" is not shown after a rebuild`);
    assert.equal((await api.get(`/v2/bots/${botId}`)).body.data.data_deleted_at, details.data_deleted_at);
  });

  it('is idempotent: asked again (either API), it answers that the data was already deleted', async () => {
    const { api } = await newTeam();
    const botId = await aliceBot(api);
    const legacy = await api.post(`/bots/${botId}/delete_data`);
    assert.deepEqual(legacy.body, { ok: true, status: 'deleted' });
    assert.deepEqual((await api.post(`/bots/${botId}/delete_data`)).body, { ok: true, status: 'alreadyDeleted' });
    const again = await api.delete(`/v2/bots/${botId}/delete-data`);
    assert.equal(again.status, 200);
    assert.equal(again.body.data.message, "The bot's data was already deleted");
    const audit = (await api.get(`/v2/bots/${botId}/events`)).body.data.events as { type: string }[];
    assert.equal(audit.filter((e) => e.type === 'BotDataDeleted').length, 1, 'recorded once');
  });

  it('a deletion recorded by a request cut short before it destroyed the key: the eraser (lease data-erasure) destroys the key and erases the artifacts on its own', async () => {
    const { api } = await newTeam();
    const botId = await aliceBot(api);
    const recorded = await handleBotCommand(t.service.commands, botId, { type: 'DeleteBotData', key_id: 'key-of-the-request', now: new Date().toISOString() });
    assert.ok(E.isRight(recorded));
    const details = await readUntil(async () => (await api.get(`/v2/bots/${botId}`)).body.data, (bot) => bot.artifacts_deleted === true);
    assert.deepEqual((await t.service.keyVault.lookup(botId)).state, 'destroyed');
    assert.equal(existsSync(artifactFolder(botId)), false);
    assert.ok(!JSON.stringify(details).includes('Alice'));
  });

  it('a restarted service reads the deleted bot as deleted (its read models are rebuilt from the log at start)', async () => {
    const { api, api_key, endpointId } = await newTeam();
    const botId = await aliceBot(api);
    assert.equal((await api.delete(`/v2/bots/${botId}/delete-data`)).status, 200);
    t = await t.restart();
    const shown = await everythingShown(apiClient(t.url, api_key), botId, endpointId);
    for (const text of PERSONAL) assert.ok(!shown.includes(text), `"${text}" is not shown after a restart`);
  });
});
