import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { apiClient, createTeam, request } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);

describe('a legacy bot through the sandbox: POST /bots, recording, DELETE /bots/{id}, its webhooks, meeting_data (real Chromium, bot process)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let apiKey: string;
  let receiver: WebhookReceiver;
  const folders: string[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    receiver = await new WebhookReceiver().start();
    t = await startTestService({ botSlots: 2 });
    const team = await createTeam(t.url, { tokens: 10 });
    apiKey = team.api_key;
    api = apiClient(t.url, apiKey);
  });
  after(async () => {
    await t?.stop();
    await sandbox?.stop();
    await receiver?.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  const statusOf = async (botId: string) => (await api.get(`/v2/bots/${botId}`)).body.data;
  const waitFor = async (botId: string, done: (bot: any) => boolean, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const bot = await statusOf(botId);
      if (done(bot)) return bot;
      if (Date.now() > deadline) throw new Error(`bot ${botId} stuck in ${bot.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  it('joins, records a speaker, leaves at once when removed: call_ended then complete reach the receiver, and meeting_data shows the recording', async () => {
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    const speaker = await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    const created = await api.post('/bots', {
      meeting_url: meeting.url,
      bot_name: 'Legacy Recorder',
      recording_mode: 'audio_only',
      entry_message: 'legacy bot here',
      automatic_leave: { waiting_room_timeout: 120, noone_joined_timeout: 120 },
      extra: { ticket: 'T-1' },
      deduplication_key: `e2e-${meeting.meeting_id}`,
      webhook_url: receiver.url,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const botId = created.body.bot_id as string;
    const again = await api.post('/bots', { meeting_url: meeting.url, bot_name: 'Twin', deduplication_key: `e2e-${meeting.meeting_id}` });
    assert.equal(again.status, 409, 'the running bot holds its deduplication key');

    await waitFor(botId, (b) => b.status === 'in_call_recording');
    const seen = await sandbox.client.waitFor(meeting.meeting_id, (m) => m.messages.some((msg) => msg.text === 'legacy bot here'), 15_000, 'the entry message');
    assert.ok(seen.messages.some((m) => m.sender_name === 'Legacy Recorder'));
    await sandbox.client.speak(meeting.meeting_id, speaker.participant_id, 'The legacy interface still records this meeting');
    await new Promise((r) => setTimeout(r, 3000));

    const removed = await request(t.url, 'DELETE', `/bots/${botId}`, { headers: { 'x-service-api-key': apiKey } });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { ok: true });
    const ended = await waitFor(botId, (b) => b.status === 'completed' || b.status === 'failed');
    assert.equal(ended.status, 'completed', JSON.stringify(ended));
    assert.equal(ended.error_code, 'API_REQUEST');
    await sandbox.client.waitFor(meeting.meeting_id, (m) => !m.participants.some((p) => p.name === 'Legacy Recorder' && p.state === 'in_call'), 10_000, 'the bot to leave');
    const events = (await api.get(`/v2/bots/${botId}/events`)).body.data.events.map((e: { type: string }) => e.type);
    assert.ok(events.indexOf('CallEnded') < events.indexOf('BotCompleted'), `call_ended before the final data: ${events}`);

    // Each message once, as a receiver keeps them by webhook-id (delivery is at least once).
    const hooks = (await receiver.waitFor((r) => r.some((x) => x.body.event === 'complete'))).filter(
      (r, i, all) => all.findIndex((x) => x.headers['webhook-id'] === r.headers['webhook-id']) === i,
    );
    const hookNames = hooks.map((r) => (r.body.event === 'bot.status_change' ? r.body.data.status.code : r.body.event));
    assert.deepEqual(hookNames.slice(-2), ['call_ended', 'complete'], `the removal's call_ended, then the final data: ${hookNames}`);
    assert.ok(hookNames.indexOf('joining_call') < hookNames.indexOf('in_call_recording'), `${hookNames}`);
    assert.ok(hooks.every((r) => r.headers['x-service-api-key'] === apiKey && r.body.data.bot_id === botId));
    const complete = hooks[hooks.length - 1]!.body.data;
    assert.deepEqual(complete.speakers, ['Alice']);
    const fromWebhook = Buffer.from(await (await fetch(complete.mp4)).arrayBuffer());

    const data = (await api.get(`/bots/meeting_data?bot_id=${botId}`)).body;
    const bot = data.bot_data.bot;
    assert.equal(bot.uuid, botId);
    assert.equal(bot.bot_name, 'Legacy Recorder');
    assert.equal(bot.is_stopped, true);
    assert.equal(bot.errors, null);
    assert.deepEqual(bot.extra, { ticket: 'T-1' });
    assert.ok(bot.bot_joined_at && bot.bot_exited_at && bot.ended_at);
    assert.ok(Date.parse(bot.bot_joined_at) < Date.parse(bot.bot_exited_at));
    assert.equal(bot.mp4_s3_path, 'recording.mp3');
    assert.ok(data.duration >= 3, `duration ${data.duration}`);
    assert.equal(data.audio, data.mp4);

    const folder = mkdtempSync(path.join(os.tmpdir(), 'mbs-legacy-e2e-'));
    folders.push(folder);
    const file = path.join(folder, 'recording.mp3');
    const download = await fetch(data.mp4);
    assert.equal(download.status, 200);
    const recorded = Buffer.from(await download.arrayBuffer());
    assert.deepEqual(fromWebhook, recorded, 'the complete event links the recording');
    writeFileSync(file, recorded);
    const { stderr } = await run('ffmpeg', ['-hide_banner', '-i', file, '-af', 'volumedetect', '-f', 'null', '-']);
    const maxVolume = Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? -91);
    assert.ok(maxVolume > -30, `the speech is in the recording (max ${maxVolume} dB)`);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
    assert.ok(Math.abs(Number(stdout.trim()) - data.duration) <= 1.5, `file ${stdout.trim()} s, duration ${data.duration} s`);
    const participants = await (await fetch(data.meeting_participants_file)).json();
    assert.ok(JSON.stringify(participants).includes('Alice'));

    const [item] = (await api.get(`/bots/bots_with_metadata?filter_by_extra=ticket:T-1`)).body.bots;
    assert.equal(item.uuid, botId);
    assert.deepEqual(item.speakers, ['Alice']);
    assert.equal(item.access_count, 1, 'the meeting_data read above');
    assert.equal(item.duration, data.duration);
    assert.equal((await api.post('/bots', { meeting_url: meeting.url, bot_name: 'Next', deduplication_key: `e2e-${meeting.meeting_id}` })).status, 200, 'the key is free once the bot ended');
  });
});
