import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Platform } from '../../contract/bot-contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import * as bots from '../support/api-bots';
import { apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const run = promisify(execFile);

describe('bots created through the API join, record, chat and leave (real Chromium, sandbox, child processes)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let teamId: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    t = await startTestService({ botSlots: 4 });
    const team = await createTeam(t.url, { tokens: 50 });
    api = apiClient(t.url, team.api_key);
    teamId = team.team_id;
  });
  after(async () => {
    await t?.stop();
    await sandbox?.stop();
  });

  const waitForBot = (botId: string, done: (bot: any) => boolean, timeoutMs?: number) => bots.waitForBot(api, botId, done, timeoutMs);
  const createBot = (url: string, body: Record<string, unknown> = {}) => bots.createBot(api, url, body);

  for (const platform of ['mt', 'tm', 'vc'] as Platform[]) {
    it(`${platform}: admitted, records a speaker, posts the entry and an API chat message, leaves on request`, async () => {
      const meeting = await sandbox.client.createMeeting({ platform, lobby: true, recording_permission: 'grant' });
      const speaker = await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
      const botId = await createBot(meeting.url, { entry_message: `hello from the ${platform} bot` });

      const waiting = await sandbox.client.waitForParticipant(meeting.meeting_id, 'lobby', 60_000, 'Recorder Bot');
      await waitForBot(botId, (b) => b.status === 'in_waiting_room');
      await sandbox.client.admit(meeting.meeting_id, waiting.participant_id);
      await waitForBot(botId, (b) => b.status === 'in_call_recording');

      await sandbox.client.speak(meeting.meeting_id, speaker.participant_id, 'The quarterly numbers are ready for review');
      const chat = await api.post(`/v2/bots/${botId}/send-chat-message`, { message: `api says hi on ${platform}` });
      assert.equal(chat.status, 200, JSON.stringify(chat.body));
      await new Promise((r) => setTimeout(r, 3500));

      const seen = await sandbox.client.waitFor(meeting.meeting_id, (m) => m.messages.length >= 2, 10_000, 'two messages');
      const texts = seen.messages.filter((m) => m.sender_name === 'Recorder Bot').map((m) => m.text);
      assert.deepEqual(texts, [`hello from the ${platform} bot`, `api says hi on ${platform}`]);

      const left = await api.post(`/v2/bots/${botId}/leave`);
      assert.equal(left.status, 200);
      const ended = await waitForBot(botId, (b) => b.status === 'completed' || b.status === 'failed');
      assert.equal(ended.status, 'completed', JSON.stringify(ended));
      assert.equal(ended.error_code, 'API_REQUEST');
      const statuses = ended.status_history.map((s: { status: string }) => s.status);
      for (const s of ['queued', 'joining_call', 'in_waiting_room', 'in_call_recording', 'completed']) assert.ok(statuses.includes(s), `${s} in ${statuses}`);

      await bots.checkRecording(api, ended);
    });
  }

  it('a bot the host denies fails with BOT_NOT_ACCEPTED', async () => {
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: true });
    const botId = await createBot(meeting.url);
    const waiting = await sandbox.client.waitForParticipant(meeting.meeting_id, 'lobby', 60_000, 'Recorder Bot');
    await sandbox.client.deny(meeting.meeting_id, waiting.participant_id);
    const ended = await waitForBot(botId, (b) => b.status === 'failed' || b.status === 'completed');
    assert.equal(ended.status, 'failed');
    assert.equal(ended.error_code, 'BOT_NOT_ACCEPTED');
  });

  it('chat in a meeting whose chat is disabled answers 422 FST_ERR_CHAT_DISABLED', async () => {
    const meeting = await sandbox.client.createMeeting({ platform: 'tm', lobby: false, chat_enabled: false });
    await sandbox.client.addSimulated(meeting.meeting_id, 'Bob');
    const botId = await createBot(meeting.url);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    const chat = await api.post(`/v2/bots/${botId}/send-chat-message`, { message: 'can anyone read this?' });
    assert.equal(chat.status, 422);
    assert.equal(chat.body.code, 'FST_ERR_CHAT_DISABLED');
    await api.post(`/v2/bots/${botId}/leave`);
    await waitForBot(botId, (b) => b.status === 'completed');
  });

  it('a bot removed by the host completes with BOT_REMOVED', async () => {
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    await sandbox.client.addSimulated(meeting.meeting_id, 'Carol');
    const botId = await createBot(meeting.url);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    const bot = await sandbox.client.waitForParticipant(meeting.meeting_id, 'in_call', 10_000, 'Recorder Bot');
    await sandbox.client.remove(meeting.meeting_id, bot.participant_id);
    const ended = await waitForBot(botId, (b) => b.status === 'completed' || b.status === 'failed');
    assert.equal(ended.status, 'completed');
    assert.equal(ended.error_code, 'BOT_REMOVED');
  });

  it('a bot whose process is killed becomes failed with a crash code and its tokens are released', async () => {
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    await sandbox.client.addSimulated(meeting.meeting_id, 'Dan');
    const botId = await createBot(meeting.url);
    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    const pid = t.service.dispatcher.pidOf(botId);
    assert.ok(pid, 'the bot runs as a process of this machine');
    const children = (await run('pgrep', ['-P', String(pid)])).stdout.trim().split('\n').map(Number);
    assert.ok(children.length > 0, 'the bot runs its browser');
    process.kill(pid, 'SIGKILL');
    const ended = await waitForBot(botId, (b) => b.status === 'failed');
    assert.equal(ended.error_code, 'FORCE_KILLED');
    const reservationReleased = async () => {
      for (let i = 0; i < 40; i++) {
        const events = (await t.service.eventStore.readStream(`team-${teamId}`)).filter((e) => e.data.bot_id === botId).map((e) => e.type);
        if (events.includes('TokensReleased')) return events;
        await new Promise((r) => setTimeout(r, 100));
      }
      return [];
    };
    assert.deepEqual(await reservationReleased(), ['TokensReserved', 'TokensReleased'], 'a crash charges nothing');
    const alive = (p: number) => {
      try {
        process.kill(p, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && children.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(children.filter(alive), [], 'the killed bot’s browser does not outlive it');
  });
});
