import assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import * as bots from '../support/api-bots';
import { apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const IN_CALL = ['in_call_not_recording', 'in_call_recording'];

describe('scheduled bots join at their time and record (real Chromium, sandbox, child processes)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    t = await startTestService({ botSlots: 2 });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 20 })).api_key);
  });
  after(async () => {
    await t?.stop();
    await sandbox?.stop();
  });

  const waitForBot = (botId: string, done: (bot: any) => boolean) => bots.waitForBot(api, botId, done, 90_000);
  const timeOf = (bot: any, statuses: readonly string[]): number => {
    const entry = bot.status_history.find((s: { status: string }) => statuses.includes(s.status));
    assert.ok(entry, `${statuses.join(' or ')} in ${JSON.stringify(bot.status_history)}`);
    return Date.parse(entry.created_at);
  };

  for (const aheadSeconds of [3, 10]) {
    it(`a bot scheduled ${aheadSeconds} s ahead is in the meeting within 2 s of join_at, records the speaker, and leaves on request`, async () => {
      const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
      const speaker = await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
      const joinAt = new Date(Date.now() + aheadSeconds * 1000).toISOString();
      const scheduled = await api.post('/v2/bots/scheduled', { meeting_url: meeting.url, bot_name: 'Scheduled Bot', recording_mode: 'audio_only', join_at: joinAt });
      assert.equal(scheduled.status, 201, JSON.stringify(scheduled.body));
      const botId = scheduled.body.data.bot_id;

      const recording = await waitForBot(botId, (b) => b.status === 'in_call_recording' || b.status === 'failed' || b.status === 'completed');
      assert.equal(recording.status, 'in_call_recording', JSON.stringify(recording));
      const joinAtMs = Date.parse(joinAt);
      const queuedMs = timeOf(recording, ['queued']);
      const inCallMs = timeOf(recording, IN_CALL);
      // Handed to a slot at its queueing time (the lead before join_at), or at once when that had passed; the
      // scheduler starts a lone bot one queueing's cost early (tens of milliseconds).
      const queueingMs = Math.max(joinAtMs - SCHEDULED_BOT_LEAD_MS, Date.parse(recording.created_at));
      assert.ok(queuedMs >= queueingMs - 500 && queuedMs <= queueingMs + 1000, `queued ${queuedMs - queueingMs} ms after its queueing time`);
      assert.ok(inCallMs <= joinAtMs + 2000, `in the meeting ${(inCallMs - joinAtMs) / 1000} s after join_at`);
      console.log(`      (queued ${(queuedMs - joinAtMs) / 1000} s, in the meeting ${(inCallMs - joinAtMs) / 1000} s from join_at)`);

      await sandbox.client.speak(meeting.meeting_id, speaker.participant_id, 'The scheduled bot records this sentence');
      await new Promise((r) => setTimeout(r, 3500));
      assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);
      const ended = await waitForBot(botId, bots.hasEnded);
      assert.equal(ended.status, 'completed', JSON.stringify(ended));
      assert.equal(ended.error_code, 'API_REQUEST');
      assert.deepEqual(ended.status_history.slice(0, 2).map((s: { status: string }) => s.status), ['scheduled', 'queued']);
      const durationSeconds = await bots.checkRecording(api, ended);
      assert.ok(durationSeconds >= 3, `recorded ${durationSeconds} s`);
      await sandbox.client.end(meeting.meeting_id);
    });
  }
});
