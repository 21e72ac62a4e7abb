import assert from 'node:assert/strict';
import { attributeSpeakers, UNKNOWN_SPEAKER } from '../../src/domain/transcription/attribute-speakers';
import type { TimedTurn } from '../../src/domain/transcription/speaker-timeline';
import type { RecognizedWord } from '../../src/domain/transcription/transcript';

/** `text` spoken from `start`, a word every 0.5 s lasting 0.4 s */
const say = (text: string, start: number, speaker_label: string | null = null, confidence: number | null = 0.9): RecognizedWord[] =>
  text.split(' ').map((word, i) => ({ word, start: start + i * 0.5, end: start + i * 0.5 + 0.4, confidence, speaker_label }));

const alice = (start: number, end: number): TimedTurn => ({ name: 'Alice', participant_id: 'p-alice', start, end });
const bob = (start: number, end: number): TimedTurn => ({ name: 'Bob', participant_id: 'p-bob', start, end });

const summary = (words: RecognizedWord[], turns: TimedTurn[]) =>
  attributeSpeakers({ words, turns, language: 'en' }).utterances.map((u) => `${u.speaker}: ${u.text}`);

describe('speakers attributed by aligning word times with the speaker timeline', () => {
  describe('given two participants taking turns with a pause between', () => {
    const words = [...say('good morning everyone', 1), ...say('morning alice', 4)];
    const turns = [alice(0.9, 2.5), bob(3.9, 5.2)];

    it('when the words fall inside the turns, then each turn becomes an utterance of its speaker, with times and words', () => {
      const t = attributeSpeakers({ words, turns, language: 'en' });
      assert.deepEqual(t.utterances[0], {
        speaker: 'Alice',
        participant_id: 'p-alice',
        start: 1,
        end: 2.4,
        text: 'good morning everyone',
        language: 'en',
        confidence: 0.9,
        words: [
          { word: 'good', start: 1, end: 1.4, confidence: 0.9 },
          { word: 'morning', start: 1.5, end: 1.9, confidence: 0.9 },
          { word: 'everyone', start: 2, end: 2.4, confidence: 0.9 },
        ],
      });
      assert.deepEqual(
        t.utterances.map((u) => [u.speaker, u.participant_id, u.text, u.start, u.end]),
        [
          ['Alice', 'p-alice', 'good morning everyone', 1, 2.4],
          ['Bob', 'p-bob', 'morning alice', 4, 4.9],
        ],
      );
      assert.deepEqual([t.total_utterances, t.languages, t.total_duration], [2, ['en'], 4.9]);
    });
  });

  describe('given a timeline that lags the audio (the bot sees the speaker a tick late)', () => {
    it('when a word starts before its turn, then it goes to the turn it overlaps most', () => {
      // Alice speaks 1.0-2.4 but the bot saw her from 1.3; Bob's turn ended 0.9 s before her first word
      assert.deepEqual(summary(say('shall we start', 1), [bob(-2, 0.1), alice(1.3, 2.8)]), ['Alice: shall we start']);
    });
    it('when a word overlaps no turn, then it goes to the nearest turn within a second', () => {
      // "yes" 3.0-3.4, Alice's turn ended at 2.6 (0.4 s before), Bob's starts at 4.5 (1.1 s after)
      assert.deepEqual(summary([...say('ok then', 1.7), ...say('yes', 3)], [alice(1.6, 2.6), bob(4.5, 6)]), ['Alice: ok then yes']);
    });
  });

  describe('given words far from any turn', () => {
    it('when the provider gave no speaker label, then the speaker is unknown', () => {
      const t = attributeSpeakers({ words: say('hello there', 20), turns: [alice(0, 2)], language: null });
      assert.deepEqual(t.utterances.map((u) => [u.speaker, u.participant_id]), [[UNKNOWN_SPEAKER, null]]);
      assert.deepEqual(t.languages, []);
    });
    it('when the provider labelled them and the label is seen elsewhere in a turn, then they go to that participant', () => {
      // label "1" overlaps Bob's turn at 5 s; the same label at 20 s has no turn near it
      const words = [...say('hello', 1, '0'), ...say('hi there', 5, '1'), ...say('one more thing', 20, '1')];
      assert.deepEqual(summary(words, [alice(0.8, 1.6), bob(4.8, 6)]), ['Alice: hello', 'Bob: hi there', 'Bob: one more thing']);
    });
    it('when the provider labelled them and the label is never in a turn, then the label names the speaker', () => {
      assert.deepEqual(summary(say('anyone there', 20, 'B'), [alice(0, 2)]), ['Speaker B: anyone there']);
    });
  });

  describe('given one speaker with a long silence between two sentences', () => {
    it('when the silence is longer than a second, then they are two utterances', () => {
      assert.deepEqual(summary([...say('first point', 1), ...say('second point', 4)], [alice(0.9, 5)]), ['Alice: first point', 'Alice: second point']);
    });
    it('when it is a second or less, then they are one', () => {
      assert.deepEqual(summary([...say('first point', 1), ...say('second point', 2.5)], [alice(0.9, 5)]), ['Alice: first point second point']);
    });
  });

  describe('given two participants with the same display name', () => {
    it('when they speak in turn, then their utterances stay apart by participant id', () => {
      const turns: TimedTurn[] = [
        { name: 'Sam', participant_id: 'p-1', start: 0.9, end: 2 },
        { name: 'Sam', participant_id: 'p-2', start: 2.05, end: 3.2 },
      ];
      const t = attributeSpeakers({ words: [...say('yes', 1), ...say('no', 2.5)], turns, language: 'en' });
      assert.deepEqual(t.utterances.map((u) => [u.speaker, u.participant_id, u.text]), [
        ['Sam', 'p-1', 'yes'],
        ['Sam', 'p-2', 'no'],
      ]);
    });
  });

  describe('given words out of order, without confidences, and a known duration', () => {
    it('when attributed, then utterances are in time order, confidence is null and the duration is the one given', () => {
      const words = [...say('later', 3, null, null), ...say('earlier', 1, null, null)];
      const t = attributeSpeakers({ words, turns: [alice(0, 4)], language: 'en', duration: 61.25 });
      assert.deepEqual(t.utterances.map((u) => [u.text, u.confidence]), [['earlier', null], ['later', null]]);
      assert.equal(t.total_duration, 61.25);
    });
  });

  describe('given no words', () => {
    it('when attributed, then there are no utterances and the duration is 0', () => {
      assert.deepEqual(attributeSpeakers({ words: [], turns: [alice(0, 4)], language: 'en' }), {
        utterances: [],
        languages: ['en'],
        total_utterances: 0,
        total_duration: 0,
      });
    });
  });
});
