import assert from 'node:assert/strict';
import { recordingOffset, speakerTimeline, type SpeakerTurn } from '../../src/domain/transcription/speaker-timeline';
import { at } from './given-when-then';

const T0 = '2026-03-02T10:00:00.000Z';
const ms = (offset: Parameters<typeof at>[1]) => Date.parse(at(T0, offset));
const turn = (name: string, start: number, end: number | null, participant_id: string | null = `id-${name}`): SpeakerTurn => ({
  name,
  participant_id,
  start: at(T0, { ms: start * 1000 }),
  end: end === null ? null : at(T0, { ms: end * 1000 }),
});

describe('speaker timeline on the recording clock', () => {
  describe('given a recording started at T0 and never paused', () => {
    const clock = { started_at: at(T0, { s: 2 }) };

    it('when turns are given in wall-clock time, then they become seconds from the recording start', () => {
      assert.deepEqual(speakerTimeline([turn('Bob', 7.25, 9.5), turn('Alice', 3, 6.125)], clock, ms({ s: 60 })), [
        { name: 'Alice', participant_id: 'id-Alice', start: 1, end: 4.125 },
        { name: 'Bob', participant_id: 'id-Bob', start: 5.25, end: 7.5 },
      ]);
    });

    it('when a turn began before the recording, then it starts at 0; one wholly before is left out', () => {
      assert.deepEqual(speakerTimeline([turn('Early', 0, 1), turn('Across', 1, 4)], clock, ms({ s: 60 })), [
        { name: 'Across', participant_id: 'id-Across', start: 0, end: 2 },
      ]);
    });

    it('when a turn is still open, then it runs to the given end', () => {
      assert.deepEqual(speakerTimeline([turn('Alice', 12, null, null)], clock, ms({ s: 20 })), [{ name: 'Alice', participant_id: null, start: 10, end: 18 }]);
    });
  });

  describe('given a recording paused from 10 s to 15 s after T0', () => {
    const clock = { started_at: T0, pauses: [{ start: at(T0, { s: 10 }), end: at(T0, { s: 15 }) }] };

    it('when an instant follows the pause, then the paused time is not counted', () => {
      assert.equal(recordingOffset(clock, ms({ s: 20 })), 15);
    });
    it('when an instant falls inside the pause, then it is where the recording stopped', () => {
      assert.equal(recordingOffset(clock, ms({ s: 12 })), 10);
    });
    it('when a turn lies wholly inside the pause, then it is left out; one across it is shortened', () => {
      assert.deepEqual(speakerTimeline([turn('Hidden', 11, 14), turn('Across', 8, 17)], clock, ms({ s: 60 })), [
        { name: 'Across', participant_id: 'id-Across', start: 8, end: 12 },
      ]);
    });
  });

  describe('given a pause still open', () => {
    it('when an instant follows its start, then it is where the recording stopped', () => {
      const clock = { started_at: T0, pauses: [{ start: at(T0, { s: 30 }), end: null }] };
      assert.equal(recordingOffset(clock, ms({ m: 5 })), 30);
    });
  });

  describe('given a pause that ended before the recording started', () => {
    it('when an instant is measured, then the pause changes nothing', () => {
      const clock = { started_at: at(T0, { s: 10 }), pauses: [{ start: T0, end: at(T0, { s: 5 }) }] };
      assert.equal(recordingOffset(clock, ms({ s: 20 })), 10);
    });
  });
});
