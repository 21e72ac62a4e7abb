import assert from 'node:assert/strict';
import { normalizedWords, wordErrorRate } from '../../src/domain/transcription/word-error-rate';

describe('word error rate', () => {
  describe('given a hypothesis equal to the reference', () => {
    it('when measured, then the rate is 0 whatever the case and punctuation', () => {
      assert.deepEqual(wordErrorRate('Good morning, everyone. Shall we start?', 'good morning everyone shall we start'), {
        wer: 0,
        substitutions: 0,
        deletions: 0,
        insertions: 0,
        referenceWords: 6,
        hypothesisWords: 6,
      });
    });
  });

  describe('given one word of each kind of error', () => {
    it('when a word is replaced, then it is one substitution', () => {
      const e = wordErrorRate('fix the bot before friday', 'fix the die before friday');
      assert.deepEqual([e.substitutions, e.deletions, e.insertions, e.wer], [1, 0, 0, 1 / 5]);
    });
    it('when a word is missing, then it is one deletion', () => {
      const e = wordErrorRate('fix the bot before friday', 'fix bot before friday');
      assert.deepEqual([e.substitutions, e.deletions, e.insertions, e.wer], [0, 1, 0, 1 / 5]);
    });
    it('when a word is added, then it is one insertion', () => {
      const e = wordErrorRate('fix the bot before friday', 'fix the bot a before friday');
      assert.deepEqual([e.substitutions, e.deletions, e.insertions, e.wer], [0, 0, 1, 1 / 5]);
    });
  });

  describe('given a hypothesis longer than the reference', () => {
    it('when every word is wrong and more are added, then the rate exceeds 1', () => {
      const e = wordErrorRate('yes', 'no no no');
      assert.deepEqual([e.substitutions, e.insertions, e.wer], [1, 2, 3]);
    });
  });

  describe('given an empty hypothesis', () => {
    it('when measured, then every reference word is a deletion (rate 1)', () => {
      const e = wordErrorRate('the meeting is over', '');
      assert.deepEqual([e.deletions, e.wer, e.hypothesisWords], [4, 1, 0]);
    });
  });

  describe('given a reference without words', () => {
    it('when measured, then it is refused: the rate has no denominator', () => {
      assert.throws(() => wordErrorRate(' ... ', 'anything'), RangeError);
    });
  });

  describe('words compared', () => {
    it('keep inner apostrophes and digits, drop other punctuation and outer quotes', () => {
      assert.deepEqual(normalizedWords(`"Don't" stop—it's 10 o'clock, 'OK'?`), ["don't", 'stop', "it's", '10', "o'clock", 'ok']);
    });
  });
});
