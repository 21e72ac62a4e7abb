/**
 * The content test through the API: a bot created with `transcription_enabled` (the Default provider,
 * PocketSphinx) records a sandbox meeting where two simulated participants say known sentences with flite
 * (real Chromium, a child process of the service); the service transcribes the recording and links the
 * diarized transcript in the bot's details and in bot.completed. Each sentence's words must go to its
 * speaker; the word error rate against the script is printed and must stay under 0.35.
 */
import assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import * as bots from '../support/api-bots';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { addSpeakers, checkDiarized, sayScript } from '../support/spoken-script';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

describe('meeting speech to a diarized transcript through the API (sandbox, real Chromium bot, Default provider)', function () {
  this.timeout(300_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let rx: WebhookReceiver;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    t = await startTestService({ botSlots: 1 });
    rx = await new WebhookReceiver().start();
  });
  after(async () => {
    await t?.stop();
    await sandbox?.stop();
    await rx?.stop();
  });

  it('bot.completed and the details link a transcript whose sentences belong to their speakers (WER < 0.35); transcription is charged', async () => {
    const team = await createTeam(t.url, { tokens: 50 });
    const api = apiClient(t.url, team.api_key);
    assert.equal((await api.post('/v2/webhooks', { url: rx.url })).status, 201);
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    const ids = await addSpeakers(sandbox.client, meeting.meeting_id);

    const botId = await bots.createBot(api, meeting.url, { transcription_enabled: true });
    await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording', 120_000);
    await new Promise((r) => setTimeout(r, 1000));
    const spoken = await sayScript(sandbox.client, meeting.meeting_id, ids);
    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);

    const received = await rx.waitFor((r) => r.some((x) => x.body.event === 'bot.completed' || x.body.event === 'bot.failed'));
    const completed = received.find((x) => x.body.event === 'bot.completed')?.body.data;
    assert.ok(completed, JSON.stringify(received.map((r) => r.body)));
    assert.deepEqual(completed.transcription, { provider: 'Default', status: 'completed', error_code: null, error_message: null });
    const linked = completed.artifacts.find((a: { artifact_type: string }) => a.artifact_type === 'transcription');
    assert.ok(linked, 'bot.completed links the diarized transcript');
    const fromWebhook = await (await fetch(linked.url)).json();

    const details = await bots.botDetails(api, botId);
    assert.equal(details.status, 'completed');
    assert.equal(details.transcription.status, 'completed');
    const artifact = details.artifacts.find((a: { artifact_type: string }) => a.artifact_type === 'transcription');
    const document = await (await fetch(artifact.url)).json();
    assert.deepEqual(document, fromWebhook, 'the same transcript behind both links');
    assert.ok(details.artifacts.some((a: { artifact_type: string }) => a.artifact_type === 'raw_transcription'));

    // the recorder's start, as the bot reported it, puts the sentences on the recording's clock
    const started = details.status_history.find((s: { status: string }) => s.status === 'in_call_recording').created_at;
    checkDiarized(document.result, spoken, { started_at: started }, ids);

    const teamNow = (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data;
    const seconds = completed.duration_seconds as number;
    const charged = Math.round((50 - teamNow.balance) * 1000);
    assert.equal(charged, Math.ceil((1250 * Math.round(seconds * 1000)) / 3_600_000), `recording and transcription for ${seconds} s`);
  });
});
