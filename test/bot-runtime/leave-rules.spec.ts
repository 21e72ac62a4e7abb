import assert from 'node:assert/strict';
import type { Platform, TimeoutConfig } from '../../contract/bot-contract';
import {
  decideLeave,
  initialClocks,
  observe,
  permissionWaitSeconds,
  SERVICE_MAX_RECORDING_SECONDS,
  waitingRoomSeconds,
  type LeaveClocks,
  type Observation,
} from '../../bot-runtime/leave-rules';

const T: TimeoutConfig = { waiting_room_timeout: 10, no_one_joined_timeout: 20, silence_timeout: 30, grace_period: 0, max_recording_duration: null };
const s = (n: number) => n * 1000;

/** Feeds observations every `step` ms from `from` to `to` (inclusive) with the same facts. */
const run = (clocks: LeaveClocks, from: number, to: number, facts: Omit<Observation, 'now'>, step = 500): LeaveClocks => {
  let c = clocks;
  for (let now = from; now <= to; now += step) c = observe(c, { ...facts, now });
  return c;
};

const inCall = (attendees: number, sound: boolean | null, recordingStartedAt: number | null = 0): Omit<Observation, 'now'> => ({
  phase: 'in_call',
  attendees,
  sound,
  recordingStartedAt,
  awaitingPermission: false,
});

const lobby: Omit<Observation, 'now'> = { phase: 'lobby', attendees: 0, sound: null, recordingStartedAt: null, awaitingPermission: false };
const hostAbsent: Omit<Observation, 'now'> = { ...lobby, phase: 'waiting_for_host' };

const decide = (c: LeaveClocks, now: number, platform: Platform = 'tm', t: TimeoutConfig = T) => decideLeave(c, platform, t, now);

describe('bot-runtime leave rules', () => {
  describe('waiting room', () => {
    it('leaves after waiting_room_timeout in the lobby, not before', () => {
      const c = run(initialClocks, 0, s(9.5), lobby);
      assert.deepEqual(decide(c, s(9.5)), { kind: 'stay' });
      assert.deepEqual(decide(c, s(10)), { kind: 'leave', reason: 'waiting_room_timeout' });
    });

    it('applies on vc too, counting host absence and lobby as one wait', () => {
      let c = run(initialClocks, 0, s(6), hostAbsent);
      c = run(c, s(6.5), s(9.5), lobby);
      assert.deepEqual(decide(c, s(9.5), 'vc'), { kind: 'stay' });
      assert.deepEqual(decide(c, s(10), 'vc'), { kind: 'leave', reason: 'waiting_room_timeout' });
    });

    it('stops counting once admitted and measures the time spent waiting', () => {
      let c = run(initialClocks, 0, s(1), { ...lobby, phase: 'joining' });
      c = run(c, s(1.5), s(4.5), lobby);
      c = run(c, s(5), s(60), inCall(1, true));
      assert.deepEqual(decide(c, s(60)), { kind: 'stay' });
      assert.equal(waitingRoomSeconds(c, s(60)), 3.5);
    });

    it('counts the open wait up to the end', () => {
      const c = run(initialClocks, s(2), s(4), lobby);
      assert.equal(waitingRoomSeconds(c, s(4.7)), 2.7);
    });
  });

  describe('no attendees (tm, mt)', () => {
    it('leaves when nobody else joined within no_one_joined_timeout', () => {
      const c = run(initialClocks, 0, s(20), inCall(0, false));
      assert.deepEqual(decide(c, s(19.5)), { kind: 'stay' });
      assert.deepEqual(decide(c, s(20)), { kind: 'leave', reason: 'no_attendees' });
    });

    it('restarts the clock when everybody leaves later', () => {
      let c = run(initialClocks, 0, s(15), inCall(0, false));
      c = run(c, s(15.5), s(30), inCall(2, true));
      c = run(c, s(30.5), s(45), inCall(0, false));
      assert.deepEqual(decide(c, s(45)), { kind: 'stay' });
      c = run(c, s(45.5), s(50.5), inCall(0, false));
      assert.deepEqual(decide(c, s(50.5)), { kind: 'leave', reason: 'no_attendees' });
    });

    it('waits the grace period, and a joiner during the grace cancels the leave', () => {
      const t = { ...T, grace_period: 5 };
      let c = run(initialClocks, 0, s(22), inCall(0, false));
      assert.deepEqual(decide(c, s(22), 'mt', t), { kind: 'grace', reason: 'no_attendees', leaveAt: s(25) });
      const withJoiner = observe(c, { ...inCall(1, true), now: s(23) });
      assert.deepEqual(decide(withJoiner, s(25), 'mt', t), { kind: 'stay' });
      c = run(c, s(22.5), s(25), inCall(0, false));
      assert.deepEqual(decide(c, s(25), 'mt', t), { kind: 'leave', reason: 'no_attendees' });
    });

    it('does not apply on vc', () => {
      const c = run(initialClocks, 0, s(120), inCall(0, false));
      assert.deepEqual(decide(c, s(120), 'vc'), { kind: 'stay' });
    });
  });

  describe('silence (tm, mt)', () => {
    it('leaves after silence_timeout of silence while attendees are present', () => {
      const c = run(initialClocks, 0, s(30), inCall(1, false));
      assert.deepEqual(decide(c, s(29.5)), { kind: 'stay' });
      assert.deepEqual(decide(c, s(30)), { kind: 'leave', reason: 'no_speaker' });
    });

    it('restarts the silence clock on any sound', () => {
      let c = run(initialClocks, 0, s(25), inCall(1, false));
      c = observe(c, { ...inCall(1, true), now: s(25.5) });
      c = run(c, s(26), s(55), inCall(1, false));
      assert.deepEqual(decide(c, s(55)), { kind: 'stay' });
      assert.deepEqual(decide(run(c, s(55.5), s(56), inCall(1, false)), s(56)), { kind: 'leave', reason: 'no_speaker' });
    });

    it('only counts once participants are detected', () => {
      let c = run(initialClocks, 0, s(15), inCall(0, false));
      c = run(c, s(15.5), s(44), inCall(1, false));
      assert.deepEqual(decide(c, s(44)), { kind: 'stay' });
      c = run(c, s(44.5), s(45.5), inCall(1, false));
      assert.deepEqual(decide(c, s(45.5)), { kind: 'leave', reason: 'no_speaker' });
    });

    it('never starts before the recorder did', () => {
      const c = observe(initialClocks, { ...inCall(1, false, s(2)), now: s(1) });
      assert.equal(c.silentSince, s(2));
      const t = { ...T, silence_timeout: 3 };
      assert.deepEqual(decide(c, s(4.9), 'tm', t), { kind: 'stay' });
      assert.deepEqual(decide(c, s(5), 'tm', t), { kind: 'leave', reason: 'no_speaker' });
    });

    it('does not count while the audio is not measured (before the recorder runs)', () => {
      const c = run(initialClocks, 0, s(100), inCall(1, null, null));
      assert.deepEqual(decide(c, s(100)), { kind: 'stay' });
    });

    it('does not apply on vc', () => {
      const c = run(initialClocks, 0, s(100), inCall(1, false));
      assert.deepEqual(decide(c, s(100), 'vc'), { kind: 'stay' });
    });
  });

  describe('max recording duration', () => {
    const recordFor = (until: number) => run(run(initialClocks, 0, s(1), inCall(1, true, null)), s(1.5), until, inCall(1, true, s(1.2)));

    it('leaves at max_recording_duration on every platform, without grace', () => {
      const t = { ...T, max_recording_duration: 8, grace_period: 60 };
      const c = recordFor(s(9.5));
      for (const p of ['tm', 'mt', 'vc'] as const) {
        assert.deepEqual(decide(c, s(9.1), p, t), { kind: 'stay' }, p);
        assert.deepEqual(decide(c, s(9.2), p, t), { kind: 'leave', reason: 'recording_timeout' }, p);
      }
    });

    it('on vc the cap is the one in-call rule (the spec\'s "only waiting_room_timeout" is about waiting, attendees and silence)', () => {
      const t = { ...T, max_recording_duration: 8, no_one_joined_timeout: 1, silence_timeout: 1, grace_period: 0 };
      const alone = run(run(initialClocks, 0, s(1), inCall(0, false, null)), s(1.5), s(5), inCall(0, false, s(1.2)));
      assert.deepEqual(decide(alone, s(5), 'vc', t), { kind: 'stay' }, 'alone and silent: vc stays');
      assert.deepEqual(decide(recordFor(s(100)), s(100), 'vc', t), { kind: 'leave', reason: 'recording_timeout' });
    });

    it('caps at 12 hours on every platform when null, and when the job asks for more', () => {
      const c = observe(initialClocks, { ...inCall(1, true), now: 0 });
      for (const [p, t] of [['vc', T], ['tm', T], ['mt', T], ['vc', { ...T, max_recording_duration: 24 * 3600 }], ['tm', { ...T, max_recording_duration: 24 * 3600 }]] as const) {
        assert.deepEqual(decide(c, s(SERVICE_MAX_RECORDING_SECONDS) - 1, p, t), { kind: 'stay' }, `${p} ${t.max_recording_duration}`);
        assert.deepEqual(decide(c, s(SERVICE_MAX_RECORDING_SECONDS), p, t), { kind: 'leave', reason: 'recording_timeout' }, `${p} ${t.max_recording_duration}`);
      }
    });
  });

  describe('vc recording permission', () => {
    const pending = { ...inCall(1, null, null), awaitingPermission: true };

    it('gives up when the host does not answer within waiting_room_timeout', () => {
      const c = run(initialClocks, s(5), s(15), pending);
      assert.deepEqual(decide(c, s(14.5), 'vc'), { kind: 'stay' });
      assert.deepEqual(decide(c, s(15), 'vc'), { kind: 'leave', reason: 'permission_timeout' });
    });

    it('counts the time spent waiting for the permission (charged with the waiting room on RECORDING_START_TIMEOUT), apart from the waiting room', () => {
      let c = run(initialClocks, 0, s(2), lobby);
      c = run(c, s(2.5), s(12), pending);
      assert.equal(permissionWaitSeconds(c, s(12.3)), 9.8, 'from the first pending observation to now');
      assert.equal(waitingRoomSeconds(c, s(12.3)), 2.5, 'the lobby alone');
      c = run(c, s(12.5), s(20), inCall(1, true, s(12.5)));
      assert.equal(permissionWaitSeconds(c, s(30)), 10, 'answered: the wait stops');
      assert.equal(permissionWaitSeconds(run(initialClocks, 0, s(5), inCall(1, true)), s(5)), 0, 'never asked');
    });
  });

  it('picks the condition met first when several are', () => {
    const t = { ...T, no_one_joined_timeout: 5, silence_timeout: 5 };
    let c = run(initialClocks, 0, s(3), inCall(1, false));
    c = run(c, s(3.5), s(20), inCall(0, false));
    assert.deepEqual(decide(c, s(20), 'tm', t), { kind: 'leave', reason: 'no_attendees' });
  });
});
