import assert from 'node:assert/strict';
import {
  addSimulated,
  admit,
  createMeeting,
  deny,
  endMeeting,
  expireLobby,
  hostStart,
  leave,
  meetingIdPattern,
  newMeetingId,
  openPage,
  parseMeetingOptions,
  postChat,
  remove,
  requestJoin,
  SandboxError,
  setLayout,
  setMedia,
  startHostWhenDue,
  sweepStale,
  type Meeting,
  type MeetingOptions,
  type Platform,
} from '../../sandbox/meeting-state';
import { pendingListeners, startUtterance } from '../../sandbox/meeting-speech';
import { controlView, pageView } from '../../sandbox/meeting-views';
import { answerRecording, requestRecording } from '../../sandbox/recording-permission';
import { replicaOptions } from '../../sandbox/replicas';
import { tmGuestNameProblem } from '../../sandbox/tm-guest-name';
import { wavDurationMs } from '../../sandbox/tts';

const T0 = Date.UTC(2026, 0, 1);

function meeting(options: Partial<MeetingOptions> & { platform?: Platform } = {}): Meeting {
  return createMeeting('123456789', { platform: 'vc', ...options }, T0);
}

/** opens a page and joins under `name`; returns the participant id */
function join(m: Meeting, pid: string, name = `Bot ${pid}`, at = T0 + 1000): string {
  openPage(m, pid, at - 500);
  requestJoin(m, pid, name, at);
  return pid;
}

function refuses(fn: () => unknown, status: number, pattern?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof SandboxError, `expected a SandboxError, got ${String(err)}`);
    assert.equal(err.status, status);
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

describe('sandbox meeting state', () => {
  describe('options and ids', () => {
    it('defaults to lobby on, chat on, host present, recording permission ask', () => {
      const m = createMeeting('abc-defg-hij', parseMeetingOptions({ platform: 'mt' }), T0);
      assert.deepEqual([m.lobby, m.chat_enabled, m.host_present, m.recording_policy], [true, true, true, 'ask']);
    });

    it('refuses unknown platforms and badly typed options', () => {
      refuses(() => parseMeetingOptions({ platform: 'zoom' }), 400, /platform/);
      refuses(() => parseMeetingOptions({ platform: 'vc', lobby: 'yes' }), 400, /lobby/);
      refuses(() => parseMeetingOptions({ platform: 'vc', recording_permission: 'maybe' }), 400, /recording_permission/);
      refuses(() => parseMeetingOptions([]), 400);
    });

    it('makes meeting ids in each platform shape', () => {
      let seed = 7;
      const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      for (const platform of ['vc', 'tm', 'mt'] as const) {
        for (let i = 0; i < 50; i++) {
          const id = newMeetingId(platform, random);
          assert.match(id, meetingIdPattern(platform), `${platform} id ${id}`);
        }
      }
      assert.match(newMeetingId('vc', random), /^[1-9]\d{8,10}$/);
    });
  });

  describe('joining', () => {
    it('goes to the lobby, and in the call once admitted, with its name and times', () => {
      const m = meeting();
      const pid = join(m, 'p1', 'Recorder Bot');
      assert.equal(m.participants.get(pid)!.state, 'lobby');
      assert.equal(m.participants.get(pid)!.joined_at, null);
      admit(m, pid, T0 + 5000);
      const p = m.participants.get(pid)!;
      assert.deepEqual([p.state, p.name, p.requested_at, p.joined_at], ['in_call', 'Recorder Bot', T0 + 1000, T0 + 5000]);
      const view = controlView(m, 'https://vc.localhost/j/123456789', T0 + 6000);
      assert.equal(view.participants[0]!.joined_at, new Date(T0 + 5000).toISOString());
      assert.ok(view.events.some((e) => e.type === 'in_call' && e.participant_id === pid && e.detail === 'admitted'));
    });

    it('goes straight into the call without a lobby', () => {
      const m = meeting({ platform: 'mt', lobby: false });
      const pid = join(m, 'p1');
      assert.equal(m.participants.get(pid)!.state, 'in_call');
      refuses(() => admit(m, pid, T0), 409, /lobby/);
    });

    it('deny ends the wait with denied; only lobby participants can be admitted or denied', () => {
      const m = meeting();
      const pid = join(m, 'p1');
      deny(m, pid, T0 + 2000);
      assert.equal(m.participants.get(pid)!.state, 'denied');
      assert.equal(m.participants.get(pid)!.left_at, T0 + 2000);
      refuses(() => admit(m, pid, T0 + 3000), 409);
      refuses(() => deny(m, pid, T0 + 3000), 409);
    });

    it('refuses to join twice, with an empty name, or an unknown participant', () => {
      const m = meeting();
      const pid = join(m, 'p1');
      refuses(() => requestJoin(m, pid, 'Again', T0 + 2000), 409);
      openPage(m, 'p2', T0);
      refuses(() => requestJoin(m, 'p2', '   ', T0), 400, /empty/);
      assert.equal(m.participants.get('p2')!.state, 'prejoin');
      refuses(() => requestJoin(m, 'nobody', 'X', T0), 404);
    });

    it('removing takes a participant out of the call (or the lobby)', () => {
      const m = meeting({ lobby: false });
      const a = join(m, 'a');
      const b = join(m, 'b');
      openPage(m, 'c', T0);
      remove(m, a, T0 + 3000);
      assert.equal(m.participants.get(a)!.state, 'removed');
      assert.equal(m.participants.get(a)!.left_at, T0 + 3000);
      refuses(() => remove(m, a, T0 + 4000), 409);
      refuses(() => remove(m, 'c', T0 + 4000), 409, /prejoin/);
      const view = pageView(m, b, 0, T0 + 5000);
      assert.deepEqual(view.participants.map((p) => p.participant_id), [b]);
      assert.equal(pageView(m, a, 0, T0 + 5000).me.state, 'removed');
    });

    it('pages that stop polling for more than the limit leave; simulated participants stay', () => {
      const m = meeting({ lobby: false });
      const a = join(m, 'a');
      openPage(m, 'b', T0);
      addSimulated(m, 's', 'Alice', T0);
      m.participants.get('b')!.last_seen = T0 + 9000;
      assert.deepEqual(sweepStale(m, T0 + 10_500, 10_000), []);
      const gone = sweepStale(m, T0 + 11_500, 10_000).map((p) => p.participant_id);
      assert.deepEqual(gone, [a]);
      assert.equal(m.participants.get(a)!.state, 'left');
      assert.equal(m.participants.get('s')!.state, 'in_call');
      assert.equal(sweepStale(m, T0 + 20_000, 10_000)[0]!.participant_id, 'b');
    });

    it('leaving is final and idempotent', () => {
      const m = meeting({ lobby: false });
      const a = join(m, 'a');
      leave(m, a, T0 + 2000);
      leave(m, a, T0 + 3000);
      assert.equal(m.participants.get(a)!.state, 'left');
      assert.equal(m.participants.get(a)!.left_at, T0 + 2000);
    });
  });

  describe('vc: waiting for the host', () => {
    it('waits for the host, then goes to the lobby when the host starts', () => {
      const m = meeting({ host_present: false });
      const pid = join(m, 'p1');
      assert.equal(m.participants.get(pid)!.state, 'waiting_for_host');
      refuses(() => admit(m, pid, T0 + 2000), 409);
      hostStart(m, T0 + 3000);
      assert.equal(m.host_present, true);
      assert.equal(m.participants.get(pid)!.state, 'lobby');
      const late = join(m, 'p2', 'Late', T0 + 4000);
      assert.equal(m.participants.get(late)!.state, 'lobby');
    });

    it('without a lobby the host start puts the waiting participants in the call', () => {
      const m = meeting({ host_present: false, lobby: false });
      const pid = join(m, 'p1');
      hostStart(m, T0 + 3000);
      assert.equal(m.participants.get(pid)!.state, 'in_call');
      assert.equal(m.participants.get(pid)!.joined_at, T0 + 3000);
    });

    it('only vc waits for the host', () => {
      for (const platform of ['tm', 'mt'] as const) {
        const m = meeting({ platform, host_present: false });
        assert.equal(m.participants.get(join(m, 'p1'))!.state, 'lobby');
      }
    });
  });

  describe('vc: recording permission', () => {
    it('ask: pending until the host grants; the host may revoke', () => {
      const m = meeting({ lobby: false });
      const pid = join(m, 'p1');
      requestRecording(m, pid, T0 + 2000);
      assert.equal(m.participants.get(pid)!.recording_permission, 'pending');
      answerRecording(m, pid, true, T0 + 3000);
      assert.equal(m.participants.get(pid)!.recording_permission, 'granted');
      requestRecording(m, pid, T0 + 3500);
      assert.equal(m.participants.get(pid)!.recording_permission, 'granted');
      answerRecording(m, pid, false, T0 + 4000);
      assert.equal(pageView(m, pid, 0, T0 + 4000).me.recording_permission, 'denied');
    });

    it('ask: the host refuses; asking again is pending again', () => {
      const m = meeting({ lobby: false });
      const pid = join(m, 'p1');
      requestRecording(m, pid, T0 + 2000);
      answerRecording(m, pid, false, T0 + 3000);
      assert.equal(m.participants.get(pid)!.recording_permission, 'denied');
      requestRecording(m, pid, T0 + 4000);
      assert.equal(m.participants.get(pid)!.recording_permission, 'pending');
    });

    it('grant and deny policies answer at once', () => {
      const granted = meeting({ lobby: false, recording_permission: 'grant' });
      requestRecording(granted, join(granted, 'p1'), T0 + 2000);
      assert.equal(granted.participants.get('p1')!.recording_permission, 'granted');
      const denied = meeting({ lobby: false, recording_permission: 'deny' });
      requestRecording(denied, join(denied, 'p1'), T0 + 2000);
      assert.equal(denied.participants.get('p1')!.recording_permission, 'denied');
    });

    it('needs the call and the vc platform', () => {
      const m = meeting();
      const pid = join(m, 'p1');
      refuses(() => requestRecording(m, pid, T0 + 2000), 409, /in the call/);
      const tm = meeting({ platform: 'tm', lobby: false });
      refuses(() => requestRecording(tm, join(tm, 'p1'), T0 + 2000), 400, /vc only/);
    });
  });

  describe('tm guest names', () => {
    const accepted = ['Recorder', "O'Brien Bot", 'Anne-Marie Ødegård', 'bot_1@acme', 'Dr. Who', 'Jean·Luc', 'ボット・一', 'A’s notes', 'x'.repeat(50)];
    const refused: [string, RegExp][] = [
      ['x'.repeat(51), /50/],
      ['Bot  Two', /consecutive spaces/],
      ['.Bot', /starts with a period/],
      ['Bot.', /ends with a period/],
      ['Bot..Two', /consecutive periods/],
      ['Bot (recording)', /not allowed/],
      ['Bot!', /not allowed/],
      ['Bot 🤖', /not allowed/],
      ['Bot\tTab', /control character|not allowed/],
    ];

    for (const name of accepted) {
      it(`accepts ${JSON.stringify(name)}`, () => {
        assert.equal(tmGuestNameProblem(name), null);
        const m = meeting({ platform: 'tm' });
        assert.equal(m.participants.get(join(m, 'p1', name))!.name, name);
      });
    }

    for (const [name, why] of refused) {
      it(`refuses ${JSON.stringify(name)}`, () => {
        assert.match(tmGuestNameProblem(name) ?? '', why);
        const m = meeting({ platform: 'tm' });
        openPage(m, 'p1', T0);
        refuses(() => requestJoin(m, 'p1', name, T0), 400, why);
        assert.equal(m.participants.get('p1')!.state, 'prejoin');
        assert.ok(m.events.some((e) => e.type === 'join_refused'));
      });
    }

    it('the other platforms take names that tm refuses', () => {
      for (const platform of ['vc', 'mt'] as const) {
        const m = meeting({ platform, lobby: false });
        assert.equal(m.participants.get(join(m, 'p1', 'Bot (recording)!'))!.state, 'in_call');
      }
    });
  });

  describe('chat', () => {
    it('records messages of participants in the call, in order, and pages see them from an index', () => {
      const m = meeting({ lobby: false });
      const a = join(m, 'a', 'Bot');
      addSimulated(m, 's', 'Alice', T0 + 1500);
      postChat(m, 's', 'hello bot', T0 + 2000);
      postChat(m, a, 'hello Alice', T0 + 3000);
      assert.deepEqual(m.messages.map((x) => [x.sender_name, x.text]), [['Alice', 'hello bot'], ['Bot', 'hello Alice']]);
      const view = pageView(m, a, 1, T0 + 4000);
      assert.equal(view.message_count, 2);
      assert.deepEqual(view.messages.map((x) => x.text), ['hello Alice']);
    });

    it('refuses messages when chat is disabled, from outside the call, and empty ones', () => {
      const m = meeting({ chat_enabled: false, lobby: false });
      const a = join(m, 'a');
      refuses(() => postChat(m, a, 'hi', T0 + 2000), 403, /disabled/);
      const open = meeting();
      const lobby = join(open, 'l');
      refuses(() => postChat(open, lobby, 'hi', T0 + 2000), 409);
      admit(open, lobby, T0 + 2500);
      refuses(() => postChat(open, lobby, '  ', T0 + 3000), 400);
      assert.equal(m.messages.length + open.messages.length, 0);
    });

    it('lobby pages see neither participants nor messages', () => {
      const m = meeting();
      addSimulated(m, 's', 'Alice', T0);
      postChat(m, 's', 'secret', T0 + 100);
      const view = pageView(m, join(m, 'l'), 0, T0 + 2000);
      assert.deepEqual([view.participants.length, view.messages.length], [0, 0]);
    });
  });

  describe('speech', () => {
    it('an utterance is active for its duration and waits for the in-call pages', () => {
      const m = meeting({ lobby: false });
      const a = join(m, 'a');
      join(m, 'b');
      remove(m, 'b', T0 + 1500);
      addSimulated(m, 's', 'Alice', T0);
      const u = startUtterance(m, 's', { text: 'hi', audio_url: '/media/speech/x.wav', duration_ms: 2000 }, T0 + 2000);
      assert.deepEqual(pendingListeners(m, u), [a]);
      u.acks.add(a);
      assert.deepEqual(pendingListeners(m, u), []);
      assert.equal(pageView(m, a, 0, T0 + 3000).utterances[0]!.active, true);
      assert.equal(controlView(m, '', T0 + 3000).speaking[0]!.name, 'Alice');
      assert.equal(pageView(m, a, 0, T0 + 4500).utterances[0]!.active, false);
      assert.equal(controlView(m, '', T0 + 4500).speaking.length, 0);
    });

    it('only simulated participants in the call speak', () => {
      const m = meeting({ lobby: false });
      const a = join(m, 'a');
      const speech = { text: 'hi', audio_url: '/x', duration_ms: 100 };
      refuses(() => startUtterance(m, a, speech, T0), 400);
      addSimulated(m, 's', 'Alice', T0);
      leave(m, 's', T0 + 100);
      refuses(() => startUtterance(m, 's', speech, T0 + 200), 409);
    });

    it('reads the duration of a WAV file', () => {
      const wav = Buffer.alloc(44 + 44100);
      wav.write('RIFF', 0, 'ascii');
      wav.writeUInt32LE(36 + 44100, 4);
      wav.write('WAVEfmt ', 8, 'ascii');
      wav.writeUInt32LE(16, 16);
      wav.writeUInt16LE(1, 20);
      wav.writeUInt16LE(1, 22);
      wav.writeUInt32LE(22050, 24);
      wav.writeUInt32LE(44100, 28);
      wav.writeUInt16LE(2, 32);
      wav.writeUInt16LE(16, 34);
      wav.write('data', 36, 'ascii');
      wav.writeUInt32LE(44100, 40);
      assert.equal(wavDurationMs(wav), 1000);
      assert.throws(() => wavDurationMs(Buffer.from('not a wav file')));
    });
  });

  describe('the end', () => {
    it('everyone still there leaves; nothing changes afterwards; pages see the end', () => {
      const m = meeting();
      const inCall = join(m, 'a');
      admit(m, inCall, T0 + 1500);
      const waiting = join(m, 'b');
      const removed = join(m, 'c');
      remove(m, removed, T0 + 1800);
      endMeeting(m, T0 + 2000);
      assert.equal(m.ended, true);
      assert.equal(m.ended_at, T0 + 2000);
      assert.deepEqual([inCall, waiting, removed].map((p) => m.participants.get(p)!.state), ['left', 'left', 'removed']);
      assert.equal(m.participants.get(inCall)!.left_at, T0 + 2000);
      refuses(() => postChat(m, inCall, 'hi', T0 + 3000), 409, /ended/);
      refuses(() => addSimulated(m, 's', 'Alice', T0 + 3000), 409, /ended/);
      openPage(m, 'late', T0 + 3000);
      refuses(() => requestJoin(m, 'late', 'Late', T0 + 3000), 409, /ended/);
      assert.equal(pageView(m, 'late', 0, T0 + 3000).meeting.ended, true);
      endMeeting(m, T0 + 4000);
      assert.equal(m.ended_at, T0 + 2000);
    });
  });

  describe('replica rules (Meet replica and those to come)', () => {
    const meet = (body: Record<string, unknown> = {}) => {
      const options = parseMeetingOptions({ platform: 'mt', ...body });
      return createMeeting('abc-defg-hij', { ...options, ...replicaOptions({ replica: 'meet', ...body }, 'mt') }, T0);
    };

    it('takes the Meet settings with Meet defaults: its own 10-minute lobby, three audio slots', () => {
      const m = meet();
      assert.equal(m.replica?.flavour, 'meet');
      assert.equal(m.lobby_timeout_ms, 600_000);
      assert.equal(m.join_wall, null);
      assert.equal(m.replica?.settings.audio_slots, 3);
      assert.equal(meet({ lobby_timeout_seconds: 2 }).lobby_timeout_ms, 2000);
      assert.equal(meet({ wall: 'cannot_join' }).join_wall, 'cannot_join');
    });

    it('refuses unknown flavours, a flavour of another platform and bad settings', () => {
      refuses(() => replicaOptions({ replica: 'skype' }, 'mt'), 400, /replica must be one of meet, teams, zoom/);
      refuses(() => replicaOptions({ replica: 'meet' }, 'tm'), 400, /mt flavour, not tm/);
      refuses(() => replicaOptions({ replica: 'meet', wall: 'moat' }, 'mt'), 400, /wall must be one of/);
      refuses(() => replicaOptions({ replica: 'meet', lobby_timeout_seconds: 0 }, 'mt'), 400, /lobby_timeout_seconds/);
      refuses(() => replicaOptions({ replica: 'meet', audio_slots: 1.5 }, 'mt'), 400, /audio_slots/);
      refuses(() => replicaOptions({ replica: 'meet', lobby_wording: 'hello' }, 'mt'), 400, /lobby_wording/);
      assert.deepEqual(replicaOptions({}, 'mt'), {});
    });

    it("drops a request nobody answered after the meeting's lobby timeout, and only those", () => {
      const m = meet({ lobby_timeout_seconds: 10 });
      join(m, 'early', 'Early', T0 + 1000);
      join(m, 'late', 'Late', T0 + 5000);
      assert.deepEqual(expireLobby(m, T0 + 10_999).map((p) => p.participant_id), []);
      assert.deepEqual(expireLobby(m, T0 + 11_000).map((p) => p.participant_id), ['early']);
      const early = m.participants.get('early')!;
      assert.deepEqual([early.state, early.end_reason], ['left', 'lobby_timeout']);
      assert.equal(pageView(m, 'early', 0, T0 + 11_000).me.end_reason, 'lobby_timeout');
      assert.equal(m.participants.get('late')!.state, 'lobby');
      assert.deepEqual(expireLobby(createMeeting('abc-defg-hij', { platform: 'mt' }, T0), T0 + 10 ** 9), [], 'no timeout: the lobby waits');
    });

    it('a join wall refuses every request at once (denied, reason blocked), with the microphone and camera noted', () => {
      const m = meet({ wall: 'cannot_join' });
      openPage(m, 'b', T0);
      const p = requestJoin(m, 'b', 'Rec Bot', T0 + 100, { microphone: false, camera: false });
      assert.deepEqual([p.state, p.end_reason, p.microphone, p.camera], ['denied', 'blocked', false, false]);
    });

    it('keeps why each participant is out, and the layout a page in the call reports', () => {
      const m = meet({ lobby: false });
      join(m, 'a', 'A');
      join(m, 'b', 'B');
      assert.equal(setLayout(m, 'a', 'Spotlight', T0 + 2000).layout, 'Spotlight');
      refuses(() => setLayout(m, 'a', '<b>', T0 + 2000), 400, /layout/);
      remove(m, 'a', T0 + 3000);
      refuses(() => setLayout(m, 'a', 'Tiled', T0 + 3000), 409);
      endMeeting(m, T0 + 4000);
      assert.deepEqual([m.participants.get('a')!.end_reason, m.participants.get('b')!.end_reason], ['removed', 'meeting ended']);
    });

    const zoom = (body: Record<string, unknown> = {}) => {
      const options = parseMeetingOptions({ platform: 'vc', ...body });
      return createMeeting('123456789', { ...options, ...replicaOptions({ replica: 'zoom', ...body }, 'vc') }, T0);
    };

    it('takes the Zoom settings: walls after Join as join walls, a host who starts by himself after a delay', () => {
      const m = zoom();
      assert.equal(m.replica?.flavour, 'zoom');
      assert.deepEqual([m.join_wall, m.lobby_timeout_ms, m.host_starts_at], [null, null, null], 'Zoom waits for ever by itself');
      assert.equal(m.replica?.settings.permission_prompts, 2);
      assert.equal(zoom({ wall: 'bot' }).join_wall, 'bot');
      assert.equal(zoom({ wall: 'auth' }).join_wall, null, 'the sign-in wall is a page, before any request');
      refuses(() => replicaOptions({ replica: 'zoom' }, 'mt'), 400, /vc flavour, not mt/);
      refuses(() => replicaOptions({ replica: 'zoom', host_absent_page: 'x' }, 'vc'), 400, /host_absent_page/);
      refuses(() => replicaOptions({ replica: 'zoom', joining_seconds: -1 }, 'vc'), 400, /joining_seconds/);

      const later = zoom({ host_present: false, host_starts_after_seconds: 5 });
      join(later, 'w', 'Waiter', T0 + 1000);
      startHostWhenDue(later, T0 + 4999);
      assert.equal(later.host_present, false);
      startHostWhenDue(later, T0 + 5000);
      assert.equal(later.host_present, true);
      assert.equal(later.participants.get('w')!.state, 'lobby', 'those waiting for the host move on');
    });

    it('a page in the call reports its microphone and camera as they change', () => {
      const m = zoom({ lobby: false });
      join(m, 'a', 'A');
      assert.equal(setMedia(m, 'a', { microphone: true }, T0 + 2000).microphone, true);
      const p = setMedia(m, 'a', { microphone: false, camera: false }, T0 + 2100);
      assert.deepEqual([p.microphone, p.camera], [false, false]);
      assert.equal(m.events.at(-1)?.detail, 'microphone=false camera=false');
      refuses(() => setMedia(m, 'a', { microphone: 'on' }, T0 + 2200), 400, /microphone/);
      remove(m, 'a', T0 + 3000);
      refuses(() => setMedia(m, 'a', { camera: true }, T0 + 3000), 409);
    });
  });
});
