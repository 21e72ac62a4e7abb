import assert from 'node:assert/strict';
import { countedAttendees, isIgnoredName } from '../../bot-runtime/attendees';
import { ChatLog } from '../../bot-runtime/chat-log';
import { parseCli } from '../../bot-runtime/cli-args';
import { jobFromService } from '../../bot-runtime/job-from-service';
import { checkMeetingUrl } from '../../bot-runtime/meeting-url';
import { endVerdict } from '../../bot-runtime/end-codes';
import { ParticipantsLog } from '../../bot-runtime/participants-log';
import { joinErrorCause } from '../../bot-runtime/run-bot';
import { finalRecordingArgs } from '../../bot-runtime/recorder/ffmpeg';
import { audioChunkKey } from '../../bot-runtime/recorder/recorder';

describe('bot-runtime pure parts', () => {
  describe('meeting URLs', () => {
    it('knows the sandbox and production hosts and their meeting paths', () => {
      const ok = (url: string) => {
        const r = checkMeetingUrl(url);
        return r.ok ? `${r.meeting.platform}${r.meeting.sandbox ? ' sandbox' : ''}` : null;
      };
      assert.equal(ok('https://vc.localhost:8443/j/123456789'), 'vc sandbox');
      assert.equal(ok('https://tm.localhost:8443/l/meetup-join/19_meeting-abc'), 'tm sandbox');
      assert.equal(ok('https://mt.localhost:8443/abc-defg-hij'), 'mt sandbox');
      assert.equal(ok('https://us02web.zoom.us/j/12345678901'), 'vc');
      assert.equal(ok('https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0'), 'tm');
      assert.equal(ok('https://meet.google.com/abc-defg-hij'), 'mt');
    });

    it('refuses other hosts, plain HTTP, non-meeting paths and a platform mismatch', () => {
      for (const url of ['https://example.com/j/123456789', 'http://vc.localhost/j/123456789', 'https://vc.localhost/j/12', 'https://mt.localhost/abc', 'not a url']) {
        assert.equal(checkMeetingUrl(url).ok, false, url);
      }
      assert.equal(checkMeetingUrl('https://mt.localhost/abc-defg-hij', 'tm').ok, false);
    });
  });

  describe('attendees', () => {
    const people = [
      { id: 'p1', name: 'Note Bot' },
      { id: 'p2', name: 'Alice' },
      { id: 'p3', name: 'Other  Recorder' },
      { id: 'p4', name: 'Note Bot' },
    ];

    it('leaves out the bot (by id) and ignored names (case and spacing insensitive)', () => {
      const counted = countedAttendees(people, { id: 'p1', name: 'Note Bot' }, ['other recorder']);
      assert.deepEqual(counted.map((p) => p.id), ['p2', 'p4']);
      assert.equal(isIgnoredName(' ALICE ', ['alice']), true);
    });

    it('without its id, leaves out one participant with the bot name only', () => {
      assert.deepEqual(countedAttendees(people, { id: null, name: 'Note Bot' }, []).map((p) => p.id), ['p2', 'p3', 'p4']);
    });
  });

  describe('participants.json', () => {
    it('records presence and speaking turns with times', () => {
      const log = new ParticipantsLog(['Other Bot']);
      log.setSelf('b');
      const bot = { id: 'b', name: 'Bot' };
      const alice = { id: 'a', name: 'Alice' };
      const other = { id: 'o', name: 'Other Bot' };
      log.update(1000, [bot, alice], null);
      log.update(2000, [bot, alice, other], 'Alice');
      log.update(3000, [bot, alice, other], null);
      log.update(4000, [bot, other], null);
      log.update(5000, [bot, alice, other], 'Alice');
      log.close(6000);
      const a = log.toArtifact();
      const iso = (ms: number) => new Date(ms).toISOString();
      const byId = Object.fromEntries(a.participants.map((p) => [p.participant_id, p]));
      assert.equal(byId.b!.is_bot, true);
      assert.equal(byId.o!.ignored, true);
      assert.deepEqual(byId.a!.presence, [
        { start: iso(1000), end: iso(4000) },
        { start: iso(5000), end: iso(6000) },
      ]);
      assert.deepEqual(byId.a!.speaking, [
        { start: iso(2000), end: iso(3000) },
        { start: iso(5000), end: iso(6000) },
      ]);
      assert.deepEqual(a.speakers.map((s) => [s.name, s.participant_id, s.start, s.end]), [
        ['Alice', 'a', iso(2000), iso(3000)],
        ['Alice', 'a', iso(5000), iso(6000)],
      ]);
    });
  });

  describe('chat_messages.json', () => {
    it('gives the bot’s own messages sender_id null and its display name', () => {
      const log = new ChatLog('Note Bot');
      log.add(1000, [{ sender_name: 'Note Bot', participant_id: 'b', text: 'hello' }], 'b');
      log.add(2000, [{ sender_name: 'Alice', participant_id: 'a', text: 'hi' }], 'b');
      assert.equal(log.count, 2);
      assert.deepEqual(log.toArtifact(), [
        { sender_id: null, sender_name: 'Note Bot', text: 'hello', seen_at: new Date(1000).toISOString() },
        { sender_id: 'a', sender_name: 'Alice', text: 'hi', seen_at: new Date(2000).toISOString() },
      ]);
    });
  });

  describe('recording files', () => {
    it('numbers audio chunks from 1 with six digits', () => {
      assert.equal(audioChunkKey(1), 'audio_chunks/000001.webm');
      assert.equal(audioChunkKey(1234), 'audio_chunks/001234.webm');
    });

    it('copies H.264 into the MP4 and transcodes anything else; MP3 for audio only', () => {
      assert.ok(finalRecordingArgs('in', 'out.mp4', 'mp4', 'video/x-matroska;codecs=avc1,opus').join(' ').includes('-c:v copy'));
      assert.ok(finalRecordingArgs('in', 'out.mp4', 'mp4', 'video/webm;codecs=vp8,opus').join(' ').includes('-c:v libx264'));
      assert.ok(finalRecordingArgs('in', 'out.mp3', 'mp3', 'audio/webm').join(' ').includes('libmp3lame'));
    });
  });

  describe('join errors', () => {
    const code = (text: string | null) => {
      const v = endVerdict(joinErrorCause(text), { platform: 'tm', phase: 'joining', recordingStarted: false });
      return `${v.outcome} ${v.error_code}`;
    };

    it('a name the platform refuses is BOT_NOT_ACCEPTED; any other join error CANNOT_JOIN_MEETING', () => {
      const refusal = 'This name cannot be used: the name contains a character that is not allowed: "!"';
      assert.equal(code(refusal), 'failed BOT_NOT_ACCEPTED');
      assert.equal((joinErrorCause(refusal) as { message?: string }).message, `The platform refused the bot's name: ${refusal}`);
      for (const other of ['cannot join from state left', 'the meeting has ended', 'Failed to fetch', null]) assert.equal(code(other), 'failed CANNOT_JOIN_MEETING', String(other));
    });
  });

  describe('command line', () => {
    it('builds a folder job from the arguments', () => {
      const r = parseCli(
        ['--meeting-url', 'https://mt.localhost:8443/abc-defg-hij', '--name', 'Rec', '--out', '/tmp/x', '--recording-mode', 'audio_only', '--trust-sandbox-certificate', '--silence-timeout', '30', '--ignore-name', 'A', '--ignore-name', 'B'],
        'id-1',
      );
      assert.ok(r.ok);
      assert.equal(r.job.platform, 'mt');
      assert.equal(r.job.recording_mode, 'audio_only');
      assert.deepEqual(r.job.upload, { kind: 'folder', path: '/tmp/x' });
      assert.equal(r.job.trust_sandbox_certificate, true);
      assert.equal(r.job.timeout_config.silence_timeout, 30);
      assert.equal(r.job.timeout_config.waiting_room_timeout, 600);
      assert.deepEqual(r.job.ignored_participant_names, ['A', 'B']);
    });

    it('refuses missing or bad arguments', () => {
      assert.equal(parseCli(['--name', 'x'], 'i').ok, false);
      assert.equal(parseCli(['--meeting-url', 'https://example.com/x', '--name', 'x'], 'i').ok, false);
      assert.equal(parseCli(['--meeting-url', 'https://mt.localhost/abc-defg-hij', '--name', 'x', '--recording-mode', 'hd'], 'i').ok, false);
      assert.equal(parseCli(['--meeting-url', 'https://mt.localhost/abc-defg-hij', '--name', 'x', '--grace-period', '-1'], 'i').ok, false);
      assert.equal(parseCli(['--meeting-url', 'https://mt.localhost/abc-defg-hij', '--name', 'x', '--bogus'], 'i').ok, false);
    });
  });

  describe('job from the service', () => {
    it('needs a launch line with a job, service_url and token, and fills optional fields', () => {
      const job = {
        bot_id: 'b',
        meeting_url: 'https://mt.localhost/abc-defg-hij',
        platform: 'mt',
        bot_name: 'Bot',
        recording_mode: 'audio_only',
        timeout_config: { waiting_room_timeout: 1, no_one_joined_timeout: 1, silence_timeout: 1, grace_period: 0, max_recording_duration: null },
        upload: { kind: 'http', baseUrl: 'http://s', token: 't' },
      };
      assert.equal(jobFromService('{}').ok, false);
      assert.equal(jobFromService('').ok, false);
      assert.equal(jobFromService('nope').ok, false);
      assert.equal(jobFromService(JSON.stringify({ job, service_url: 'http://s' })).ok, false, 'no token');
      assert.equal(jobFromService(JSON.stringify({ job: { bot_id: 'b' }, service_url: 'http://s', token: 't' })).ok, false);
      const r = jobFromService(JSON.stringify({ job, service_url: 'http://s', token: 't' }));
      assert.ok(r.ok);
      assert.deepEqual(r.job.ignored_participant_names, []);
      assert.equal(r.job.entry_message, null);
      assert.equal(r.job.trust_sandbox_certificate, false, 'the sandbox certificate is trusted only when the service says so');
      assert.deepEqual([r.serviceUrl, r.token, r.testCaPem], ['http://s', 't', null]);
    });
  });
});
