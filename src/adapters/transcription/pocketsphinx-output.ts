/**
 * What `pocketsphinx_continuous -time yes` prints: per utterance, the hypothesis on one line, then one
 * line per token `word start end confidence` (seconds from the start of the input). Tokens include
 * sentence and silence markers (`<s>`, `</s>`, `<sil>`) and noise fillers (`[NOISE]`, `[SPEECH]`); an
 * alternate pronunciation carries its number (`for(3)`).
 */
import type { RecognizedWord } from '../../domain/transcription/transcript';

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/;
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

export const parsePocketSphinxTimes = (output: string): RecognizedWord[] =>
  output.split('\n').flatMap((line) => {
    const m = WORD_LINE.exec(line.trim());
    if (!m || FILLER.test(m[1]!)) return [];
    return [
      {
        word: m[1]!.replace(/\(\d+\)$/, ''),
        start: Number(m[2]),
        end: Number(m[3]),
        // a posterior probability; rounding in the decoder takes it a hair over 1
        confidence: Math.min(1, Math.max(0, Number(m[4]))),
        speaker_label: null,
      },
    ];
  });
