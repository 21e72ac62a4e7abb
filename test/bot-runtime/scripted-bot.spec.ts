import assert from 'node:assert/strict';
import bunyan from 'bunyan';
import { childProcessLauncherFor } from '../../src/adapters/bot-launcher/child-process-launcher';
import { artifactJson, waitForBot } from '../support/api-bots';
import { apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

describe('SCRIPTED_BOTS: a scripted stand-in bot, started by the service like the real one, on the real internal API', function () {
  this.timeout(60_000);
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  before(async () => {
    const log = bunyan.createLogger({ name: 'scripted', level: 'fatal' });
    // Bots of vc run scripted; the service starts them as child processes as it would start Chromium bots.
    t = await startTestService({ botSlots: 2, overrides: { launcher: childProcessLauncherFor(log, { scriptedBots: ['vc'] }, 2) } });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 10 })).api_key);
  });
  after(() => t?.stop());

  it('records, posts the chat it is asked to, leaves on request and stores what it posted and a stand-in recording', async () => {
    const created = await api.post('/v2/bots', { meeting_url: 'https://vc.localhost:8443/j/123456789', bot_name: 'Stand-in' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId = created.body.data.bot_id as string;
    await waitForBot(api, botId, (b) => b.status === 'in_call_recording');

    const chat = await api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'hello stand-in' });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const ended = await waitForBot(api, botId, (b) => b.status === 'completed' || b.status === 'failed');
    assert.equal(`${ended.status} ${ended.error_code}`, 'completed API_REQUEST');
    const posted = await artifactJson(ended, 'chat_messages');
    assert.deepEqual(posted.map((m: { text: string }) => m.text), ['hello stand-in']);
    assert.deepEqual(ended.artifacts.map((a: { artifact_type: string }) => a.artifact_type).sort(), ['chat_messages', 'recording']);
    // No browser, no meeting: its recording is a second of silence, a real WAV file for a transcription to fetch.
    const recording = Buffer.from(await (await fetch(ended.artifacts.find((a: { artifact_type: string }) => a.artifact_type === 'recording').url)).arrayBuffer());
    assert.equal(recording.subarray(0, 4).toString(), 'RIFF');
    assert.equal(recording.subarray(8, 12).toString(), 'WAVE');
    assert.equal(recording.length, 44 + 8000);
  });
});
