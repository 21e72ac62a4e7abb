/**
 * The bot end to end: real Chromium, the real sandbox (in-process), the bot run in-process with
 * in-memory doubles of the service side (reporter, control channel) and a folder for artifacts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { EndReport, Platform, RecordingMode } from '../../contract/bot-contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { FinalWebhookCheck } from './final-webhooks';
import { botParticipant, endBots, mediaFacts, sleep, smallTimeouts, startBot, type StartedBot } from './support';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** `ffmpeg -i in -c copy out`: fails when the input does not decode as media. */
const remux = (input: string, output: string) => promisify(execFile)('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', input, '-c', 'copy', output]);

describe('bot-runtime end to end (Chromium + sandbox)', function () {
  this.timeout(120_000); // generous: the machine may be shared with other Chromium runs
  let sb: RunningSandbox;
  const running: StartedBot[] = [];
  // every end of this suite, carried through the service, must reach the team as its final webhook
  const finalWebhooks = new FinalWebhookCheck();

  before(async () => {
    sb = await startSandbox({ port: 0 });
    await finalWebhooks.start();
  });

  after(async () => {
    await sb?.stop();
    await finalWebhooks.stop();
  });

  afterEach(async function () {
    const bots = [...running];
    await endBots(running);
    if (this.currentTest?.state === 'passed') for (const bot of bots) await finalWebhooks.check(bot.reporter.reports);
  });

  const track = (bot: StartedBot) => (running.push(bot), bot);

  const assertEnd = (end: EndReport, outcome: 'completed' | 'failed', code: string) => {
    assert.equal(`${end.outcome} ${end.error_code}`, `${outcome} ${code}`, end.error_message);
  };

  const exactlyOneEnd = (bot: StartedBot, end: EndReport) => {
    assert.deepEqual(bot.reporter.ends(), [end]);
    assert.equal(bot.reporter.reports[bot.reporter.reports.length - 1], end, 'the EndReport comes last');
  };

  describe('full meeting, per flavour', () => {
    const flavours: { platform: Platform; mode: RecordingMode; file: string }[] = [
      { platform: 'vc', mode: 'speaker_view', file: 'recording.mp4' },
      { platform: 'tm', mode: 'speaker_view', file: 'recording.mp4' },
      { platform: 'mt', mode: 'audio_only', file: 'recording.mp3' },
    ];
    for (const { platform, mode, file } of flavours) {
      it(`${platform} (${mode}): ${platform === 'vc' ? 'host arrives, ' : ''}lobby, admitted, records a speaker, entry message and chat, leaves on request`, async () => {
        // vc: the host is not there yet; it arrives, then the lobby
        const m = await sb.client.createMeeting({ platform, lobby: true, recording_permission: 'ask', host_present: platform !== 'vc' });
        const bot = track(startBot(m.url, platform, { recording_mode: mode, entry_message: `Hello, I record (${platform})` }));
        if (platform === 'vc') {
          await botParticipant(sb, m.meeting_id, 'waiting_for_host');
          await sleep(500);
          await sb.client.hostStart(m.meeting_id);
        }
        const pid = await botParticipant(sb, m.meeting_id, 'lobby');
        await bot.reporter.waitForStatus('in_waiting_room');
        const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
        await sleep(300);
        await sb.client.admit(m.meeting_id, pid);
        if (platform === 'vc') {
          await sb.client.waitFor(m.meeting_id, (v) => v.participants.some((p) => p.participant_id === pid && p.recording_permission === 'pending'), 30_000, 'the recording request');
          assert.ok(!bot.reporter.statuses().includes('in_call_recording'), 'vc records only once permitted');
          await sb.client.answerRecording(m.meeting_id, pid, true);
        }
        await bot.reporter.waitForStatus('in_call_recording');
        await sleep(500);
        const spoken = await sb.client.speak(m.meeting_id, alice.participant_id, 'Good morning everyone. This is the weekly planning meeting.');
        assert.ok(spoken.listeners.includes(pid), 'the bot page plays the speech');
        await sleep(spoken.duration_seconds * 1000 + 500);

        assert.deepEqual(await bot.control.send({ kind: 'chat', message: 'A message through the API' }), { id: 'req-1', ok: true });
        await sb.client.chat(m.meeting_id, alice.participant_id, 'Welcome, bot');
        await sleep(500);
        const view = await sb.client.getMeeting(m.meeting_id);
        const fromBot = view.messages.filter((x) => x.participant_id === pid).map((x) => x.text);
        assert.deepEqual(fromBot, [`Hello, I record (${platform})`, 'A message through the API']);

        assert.deepEqual(await bot.control.send({ kind: 'leave' }), { id: 'req-2', ok: true });
        const end = await bot.done;
        assertEnd(end, 'completed', 'API_REQUEST');
        exactlyOneEnd(bot, end);
        assert.deepEqual(bot.reporter.statuses(), ['joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'call_ended']);
        assert.ok(end.waiting_room_seconds > 0.1 && end.waiting_room_seconds < 10, `waiting room ${end.waiting_room_seconds}`);

        const facts = await mediaFacts(path.join(bot.out, file));
        assert.ok(facts.maxDb > -20 && facts.meanDb > -50, `the recording has the speech: mean ${facts.meanDb} dB, max ${facts.maxDb} dB`);
        assert.ok(Math.abs(facts.duration - end.recorded_seconds) < 1, `duration ${facts.duration} s vs recorded ${end.recorded_seconds} s`);
        // the time in the call by the bot's own reports (another clock than the recorder's)
        const statusAt = (status: string) => {
          const r = bot.reporter.reports.find((x) => x.kind === 'status' && x.status === status);
          assert.ok(r, `status ${status} reported`);
          return Date.parse(r.at);
        };
        const inCallSeconds = (statusAt('call_ended') - statusAt('in_call_recording')) / 1000;
        assert.ok(Math.abs(facts.duration - inCallSeconds) < 1, `duration ${facts.duration} s vs ${inCallSeconds} s from in_call_recording to call_ended`);
        assert.ok(end.recorded_seconds > spoken.duration_seconds, `recorded ${end.recorded_seconds} s`);
        if (mode === 'audio_only') assert.deepEqual(facts.codecs, ['mp3']);
        else assert.deepEqual([...facts.codecs].sort(), ['aac', 'h264']);

        const after = await sb.client.getMeeting(m.meeting_id);
        assert.equal(after.participants.find((p) => p.participant_id === pid)?.state, 'left');

        // artifacts
        const keys = bot.reporter.artifactKeys();
        for (const k of [file, 'chat_messages.json', 'participants.json', 'bot.log', 'audio_chunks/000001.webm', 'screenshots/1.png']) {
          assert.ok(keys.includes(k), `artifact ${k} reported`);
          assert.ok(fs.existsSync(path.join(bot.out, k)), `artifact ${k} stored`);
        }
        const chunks = keys.filter((k) => k.startsWith('audio_chunks/'));
        assert.ok(chunks.length >= 3, `${chunks.length} audio chunks`);
        const joined = path.join(bot.out, 'chunks-joined.webm');
        fs.writeFileSync(joined, Buffer.concat(chunks.map((k) => fs.readFileSync(path.join(bot.out, k)))));
        // concatenated in order they must decode (remuxed for a duration, README) and hold the speech
        const remuxed = path.join(bot.out, 'chunks-remuxed.webm');
        await remux(joined, remuxed);
        const chunkFacts = await mediaFacts(remuxed);
        assert.deepEqual(chunkFacts.codecs, ['opus']);
        assert.ok(chunkFacts.duration > spoken.duration_seconds, `the chunks last ${chunkFacts.duration} s`);
        assert.ok(chunkFacts.maxDb > -20 && chunkFacts.meanDb > -50, `the concatenated audio chunks have the speech: mean ${chunkFacts.meanDb} dB, max ${chunkFacts.maxDb} dB`);

        const chat = readJson(path.join(bot.out, 'chat_messages.json')) as { sender_id: string | null; sender_name: string; text: string }[];
        assert.deepEqual(
          chat.map((c) => [c.sender_id, c.sender_name, c.text]),
          [
            [null, 'Rec Bot', `Hello, I record (${platform})`],
            [null, 'Rec Bot', 'A message through the API'],
            [alice.participant_id, 'Alice', 'Welcome, bot'],
          ],
        );
        const participants = readJson(path.join(bot.out, 'participants.json'));
        const a = participants.participants.find((p: { name: string }) => p.name === 'Alice');
        assert.ok(a && a.presence.length === 1 && a.speaking.length >= 1, JSON.stringify(participants));
        assert.equal(participants.participants.find((p: { is_bot: boolean }) => p.is_bot)?.participant_id, pid);
        assert.match(fs.readFileSync(path.join(bot.out, 'bot.log'), 'utf8'), /status in_call_recording/);
      });
    }
  });

  describe('ends', () => {
    it('denied in the lobby -> BOT_NOT_ACCEPTED, with the waiting time', async () => {
      const m = await sb.client.createMeeting({ platform: 'mt', lobby: true });
      const bot = track(startBot(m.url, 'mt'));
      const pid = await botParticipant(sb, m.meeting_id, 'lobby');
      // the bot's waiting clock starts when it sees the lobby, which may be later than the sandbox's
      await bot.reporter.waitForStatus('in_waiting_room');
      await sleep(1200);
      await sb.client.deny(m.meeting_id, pid);
      const end = await bot.done;
      assertEnd(end, 'failed', 'BOT_NOT_ACCEPTED');
      exactlyOneEnd(bot, end);
      assert.ok(end.waiting_room_seconds >= 1 && end.waiting_room_seconds < 8, `waited ${end.waiting_room_seconds}`);
      assert.equal(end.recorded_seconds, 0);
      assert.ok(!bot.reporter.statuses().includes('call_ended'));
    });

    it('lobby timeout -> TIMEOUT_WAITING_TO_START after waiting_room_timeout', async () => {
      const m = await sb.client.createMeeting({ platform: 'tm', lobby: true });
      const bot = track(startBot(m.url, 'tm', { timeout_config: { ...smallTimeouts, waiting_room_timeout: 3 } }));
      const end = await bot.done;
      assertEnd(end, 'failed', 'TIMEOUT_WAITING_TO_START');
      assert.ok(end.waiting_room_seconds >= 3 && end.waiting_room_seconds < 6, `waited ${end.waiting_room_seconds}`);
      const view = await sb.client.getMeeting(m.meeting_id);
      assert.equal(view.participants.find((p) => p.name === 'Rec Bot')?.state, 'left', 'the bot left the lobby');
    });

    it('vc host never arrives -> WAITING_FOR_HOST_TIMEOUT', async () => {
      const m = await sb.client.createMeeting({ platform: 'vc', host_present: false });
      const bot = track(startBot(m.url, 'vc', { timeout_config: { ...smallTimeouts, waiting_room_timeout: 3 } }));
      const end = await bot.done;
      assertEnd(end, 'failed', 'WAITING_FOR_HOST_TIMEOUT');
      assert.deepEqual(bot.reporter.statuses(), ['joining_call', 'in_waiting_room']);
    });

    it('vc host never answers the recording request -> RECORDING_START_TIMEOUT, reporting how long it waited for the permission', async () => {
      const m = await sb.client.createMeeting({ platform: 'vc', lobby: false, recording_permission: 'ask' });
      const bot = track(startBot(m.url, 'vc', { recording_mode: 'audio_only', timeout_config: { ...smallTimeouts, waiting_room_timeout: 3 } }));
      const end = await bot.done;
      assertEnd(end, 'failed', 'RECORDING_START_TIMEOUT');
      assert.equal(end.recorded_seconds, 0);
      assert.ok(end.permission_wait_seconds! >= 2.5 && end.permission_wait_seconds! < 8, `waited ${end.permission_wait_seconds} s for the permission`);
      assert.ok(end.waiting_room_seconds < 1, `no waiting room: ${end.waiting_room_seconds} s`);
    });

    it('vc host refuses the recording -> RECORDING_RIGHTS_NOT_GRANTED', async () => {
      const m = await sb.client.createMeeting({ platform: 'vc', lobby: false, recording_permission: 'deny' });
      const bot = track(startBot(m.url, 'vc'));
      const end = await bot.done;
      assertEnd(end, 'failed', 'RECORDING_RIGHTS_NOT_GRANTED');
      assert.equal(end.recorded_seconds, 0);
      assert.deepEqual(bot.reporter.statuses(), ['joining_call', 'in_call_not_recording', 'call_ended']);
    });

    it('removed while recording -> BOT_REMOVED (completed)', async () => {
      const m = await sb.client.createMeeting({ platform: 'tm', lobby: false });
      await sb.client.addSimulated(m.meeting_id, 'Host');
      const bot = track(startBot(m.url, 'tm'));
      const pid = await botParticipant(sb, m.meeting_id, 'in_call');
      await bot.reporter.waitForStatus('in_call_recording');
      await sleep(1500);
      await sb.client.remove(m.meeting_id, pid);
      const end = await bot.done;
      assertEnd(end, 'completed', 'BOT_REMOVED');
      assert.ok(end.recorded_seconds >= 1.3, `recorded ${end.recorded_seconds}`);
      assert.ok(fs.existsSync(path.join(bot.out, 'recording.mp4')));
    });

    it('the meeting ends while recording -> completed BOT_REMOVED; on vc before admission -> EXITING_MEETING_BEFORE_RECORD, awaiting the permission -> MEETING_ENDED_PREMATURELY', async () => {
      const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
      await sb.client.addSimulated(m.meeting_id, 'Host');
      const bot = track(startBot(m.url, 'mt', { recording_mode: 'audio_only' }));
      await bot.reporter.waitForStatus('in_call_recording');
      await sleep(1000);
      await sb.client.end(m.meeting_id);
      const vc = await sb.client.createMeeting({ platform: 'vc', host_present: false });
      const vcBot = track(startBot(vc.url, 'vc'));
      const asking = await sb.client.createMeeting({ platform: 'vc', lobby: false, recording_permission: 'ask' });
      const askingBot = track(startBot(asking.url, 'vc', { recording_mode: 'audio_only' }));
      await vcBot.reporter.waitForStatus('in_waiting_room');
      await sb.client.end(vc.meeting_id);
      await sb.client.waitFor(asking.meeting_id, (v) => v.participants.some((p) => p.recording_permission === 'pending'), 30_000, 'the recording request');
      await sb.client.end(asking.meeting_id);

      const end = await bot.done;
      assertEnd(end, 'completed', 'BOT_REMOVED');
      assert.match(end.error_message, /meeting ended/);
      assert.ok(fs.existsSync(path.join(bot.out, 'recording.mp3')));
      assertEnd(await vcBot.done, 'failed', 'EXITING_MEETING_BEFORE_RECORD');
      assertEnd(await askingBot.done, 'failed', 'MEETING_ENDED_PREMATURELY');
    });

    it('nobody joins -> NO_ATTENDEES; ignored names do not count', async () => {
      const m = await sb.client.createMeeting({ platform: 'tm', lobby: false });
      await sb.client.addSimulated(m.meeting_id, 'Other Notetaker');
      const bot = track(startBot(m.url, 'tm', { ignored_participant_names: ['other notetaker'], timeout_config: { ...smallTimeouts, no_one_joined_timeout: 3 } }));
      await bot.reporter.waitForStatus('in_call_recording');
      const end = await bot.done;
      assertEnd(end, 'completed', 'NO_ATTENDEES');
      assert.ok(end.recorded_seconds >= 2 && end.recorded_seconds < 8, `recorded ${end.recorded_seconds}`);
    });

    it('silence -> NO_SPEAKER, measured on the captured audio (speech resets it)', async () => {
      const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
      const bob = await sb.client.addSimulated(m.meeting_id, 'Bob');
      const bot = track(startBot(m.url, 'mt', { recording_mode: 'audio_only', timeout_config: { ...smallTimeouts, silence_timeout: 3 } }));
      await bot.reporter.waitForStatus('in_call_recording');
      await sleep(1500);
      const spoken = await sb.client.speak(m.meeting_id, bob.participant_id, 'Still here.');
      const spokeAt = Date.now();
      const end = await bot.done;
      const after = (Date.now() - spokeAt) / 1000;
      assertEnd(end, 'completed', 'NO_SPEAKER');
      // without the reset the bot would leave about 1.5 s after the speech started
      assert.ok(after >= spoken.duration_seconds + 2, `left ${after} s after the speech (${spoken.duration_seconds} s) started`);
      assert.ok(end.recorded_seconds >= 1.5 + spoken.duration_seconds + 2.5, `recorded ${end.recorded_seconds} s`);
    });

    it('max recording duration -> RECORDING_TIMEOUT, on vc too', async () => {
      const ends = await Promise.all(
        (['mt', 'vc'] as const).map(async (platform) => {
          const m = await sb.client.createMeeting({ platform, lobby: false, recording_permission: 'grant' });
          return track(startBot(m.url, platform, { recording_mode: 'audio_only', timeout_config: { ...smallTimeouts, max_recording_duration: 3 } })).done;
        }),
      );
      for (const end of ends) {
        assertEnd(end, 'completed', 'RECORDING_TIMEOUT');
        assert.ok(end.recorded_seconds >= 3 && end.recorded_seconds < 5, `recorded ${end.recorded_seconds}`);
      }
    });

    it('leave requested in the lobby -> EXITING_MEETING_BEFORE_RECORD; chat there -> not_in_call', async () => {
      const m = await sb.client.createMeeting({ platform: 'tm', lobby: true });
      const bot = track(startBot(m.url, 'tm'));
      await bot.reporter.waitForStatus('in_waiting_room');
      const chat = await bot.control.send({ kind: 'chat', message: 'hello?' });
      assert.equal(chat.ok === false && chat.reason, 'not_in_call');
      assert.deepEqual(await bot.control.send({ kind: 'leave' }), { id: 'req-2', ok: true });
      const end = await bot.done;
      assertEnd(end, 'failed', 'EXITING_MEETING_BEFORE_RECORD');
      assert.equal(end.recorded_seconds, 0);
    });

    it('unknown meeting -> CANNOT_JOIN_MEETING; name refused by the platform -> BOT_NOT_ACCEPTED; bad URL -> INVALID_MEETING_URL', async () => {
      const bot = track(startBot(sb.urlFor('mt', 'zzz-zzzz-zzz'), 'mt'));
      const bad = track(startBot('https://example.com/meeting', 'mt'));
      // tm refuses guest names with characters outside its rules (the API refuses them too: this is the runtime's own path)
      const tm = await sb.client.createMeeting({ platform: 'tm', lobby: false });
      const refused = track(startBot(tm.url, 'tm', { bot_name: 'Rec Bot!' }));
      assertEnd(await bot.done, 'failed', 'CANNOT_JOIN_MEETING');
      const refusedEnd = await refused.done;
      assertEnd(refusedEnd, 'failed', 'BOT_NOT_ACCEPTED');
      exactlyOneEnd(refused, refusedEnd);
      assert.deepEqual(refused.reporter.statuses(), ['joining_call']);
      assert.match(refused.log.text(), /join error: This name cannot be used/);
      const events = (await sb.client.getMeeting(tm.meeting_id)).events.map((e) => e.type);
      assert.ok(events.includes('join_refused') && !events.includes('join_requested'), events.join(' '));
      const end = await bad.done;
      assertEnd(end, 'failed', 'INVALID_MEETING_URL');
      assert.deepEqual(bad.reporter.statuses(), []);
      const unreachable = track(startBot('https://mt.localhost:1/abc-defg-hij', 'mt', { trust_sandbox_certificate: false }));
      assertEnd(await unreachable.done, 'failed', 'CANNOT_JOIN_MEETING');
    });
  });

  describe('joining', () => {
    it('a leave while the page of an unreachable meeting is loading ends the run at once, not at the navigation timeout', async () => {
      // accepts connections and never answers: the navigation could only end by its own timeout (an hour here)
      const sockets: net.Socket[] = [];
      let closedBeforeLeave = false;
      let leaveSent = false;
      const silent = net.createServer((socket) => {
        sockets.push(socket);
        socket.on('close', () => (closedBeforeLeave ||= !leaveSent));
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as net.AddressInfo).port;
      try {
        const bot = track(startBot(`https://mt.localhost:${port}/abc-defg-hij`, 'mt', { trust_sandbox_certificate: false }, { options: { joinTimeoutSeconds: 3600 } }));
        await bot.reporter.waitFor(() => sockets.length > 0, 'the navigation to reach the server');
        leaveSent = true;
        assert.deepEqual(await bot.control.send({ kind: 'leave' }), { id: 'req-1', ok: true });
        const end = await bot.done;
        assertEnd(end, 'failed', 'EXITING_MEETING_BEFORE_RECORD');
        assert.equal(closedBeforeLeave, false, 'the browser had not given up on the page by itself');
        assert.match(bot.log.text(), /navigation interrupted: the run is ending/);
        assert.deepEqual(bot.reporter.statuses(), ['joining_call']);
      } finally {
        for (const s of sockets) s.destroy();
        silent.close();
      }
    });
  });

  describe('vc recording permission', () => {
    it('a permission withdrawn while recording pauses the recording; granted again resumes it', async () => {
      const m = await sb.client.createMeeting({ platform: 'vc', lobby: false, recording_permission: 'grant' });
      const bot = track(startBot(m.url, 'vc', { recording_mode: 'audio_only' }));
      const pid = await botParticipant(sb, m.meeting_id, 'in_call');
      await bot.reporter.waitForStatus('in_call_recording');
      await sb.client.answerRecording(m.meeting_id, pid, false);
      await bot.reporter.waitForStatus('recording_paused');
      await sleep(1000);
      await sb.client.answerRecording(m.meeting_id, pid, true);
      await bot.reporter.waitForStatus('recording_resumed');
      await sleep(1000);
      await bot.control.send({ kind: 'leave' });
      const end = await bot.done;
      assertEnd(end, 'completed', 'API_REQUEST');
      assert.deepEqual(bot.reporter.statuses(), ['joining_call', 'in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed', 'call_ended']);
      const facts = await mediaFacts(path.join(bot.out, 'recording.mp3'));
      assert.ok(facts.duration < end.recorded_seconds - 0.5, `the pause is not in the file: ${facts.duration} s of ${end.recorded_seconds} s`);
    });
  });

  describe('chat', () => {
    it('chat disabled -> chat_disabled result, and no entry message', async () => {
      const m = await sb.client.createMeeting({ platform: 'tm', lobby: false, chat_enabled: false });
      await sb.client.addSimulated(m.meeting_id, 'Host');
      const bot = track(startBot(m.url, 'tm', { entry_message: 'hi all' }));
      await bot.reporter.waitForStatus('in_call_recording');
      const r = await bot.control.send({ kind: 'chat', message: 'anyone?' });
      assert.equal(r.ok === false && r.reason, 'chat_disabled');
      assert.equal((await sb.client.getMeeting(m.meeting_id)).messages.length, 0);
      await bot.control.send({ kind: 'leave' });
      assertEnd(await bot.done, 'completed', 'API_REQUEST');
      assert.match(bot.log.text(), /entry message not posted: chat_disabled/);
    });
  });
});
