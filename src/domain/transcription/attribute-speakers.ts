/**
 * Diarization by alignment: each recognised word goes to the participant the bot saw speaking while it
 * was said, and consecutive words of one participant become an utterance. PocketSphinx does not diarize
 * at all, and hosted providers only number their speakers; the bot's speaker timeline gives the names.
 */
import type { TimedTurn } from './speaker-timeline';
import { toMillisecond, type DiarizedTranscript, type RecognizedWord, type TranscriptWord, type Utterance } from './transcript';

export interface AlignmentRules {
  /** a silence longer than this between two words of one speaker starts a new utterance */
  readonly maxPauseSeconds: number;
  /** a word that overlaps no turn goes to the nearest turn at most this far away */
  readonly nearestTurnSeconds: number;
}

/**
 * The bot sees the active speaker a tick (0.25 to 0.5 s) after the audio starts, so a turn's edges are
 * late by about that much: a second of slack covers it without reaching into a turn a pause away.
 */
export const defaultAlignmentRules: AlignmentRules = { maxPauseSeconds: 1, nearestTurnSeconds: 1 };

export const UNKNOWN_SPEAKER = 'Unknown speaker';

export interface AlignmentInput {
  readonly words: readonly RecognizedWord[];
  /** the speaker timeline on the recording's clock (speakerTimeline) */
  readonly turns: readonly TimedTurn[];
  readonly language: string | null;
  /** seconds of audio transcribed; the last word's end when unknown */
  readonly duration?: number;
}

interface Speaker {
  readonly name: string;
  readonly participant_id: string | null;
}

const keyOf = (s: Speaker): string => (s.participant_id === null ? `name:${s.name}` : `id:${s.participant_id}`);

const overlap = (word: RecognizedWord, turn: TimedTurn): number => Math.min(word.end, turn.end) - Math.max(word.start, turn.start);

const gap = (word: RecognizedWord, turn: TimedTurn): number => Math.max(turn.start - word.end, word.start - turn.end, 0);

/** The turn the word shares the most time with, if any. */
const overlappingTurn = (word: RecognizedWord, turns: readonly TimedTurn[]): TimedTurn | null => {
  let best: TimedTurn | null = null;
  let bestOverlap = 0;
  for (const turn of turns) {
    const o = overlap(word, turn);
    if (o > bestOverlap) [best, bestOverlap] = [turn, o];
  }
  return best;
};

const nearestTurn = (word: RecognizedWord, turns: readonly TimedTurn[], within: number): TimedTurn | null => {
  let best: TimedTurn | null = null;
  let bestGap = within;
  for (const turn of turns) {
    const g = gap(word, turn);
    if (g <= bestGap) [best, bestGap] = [turn, g];
  }
  return best;
};

/**
 * Which participant each provider label stands for: the one whose turns share the most time with the
 * words the provider gave that label. Labels none of whose words overlap a turn stay unmapped.
 */
const participantsOfLabels = (words: readonly RecognizedWord[], turns: readonly TimedTurn[]): Map<string, Speaker> => {
  const time = new Map<string, Map<string, { speaker: Speaker; seconds: number }>>();
  for (const word of words) {
    if (word.speaker_label === null) continue;
    const turn = overlappingTurn(word, turns);
    if (!turn) continue;
    const perSpeaker = time.get(word.speaker_label) ?? new Map<string, { speaker: Speaker; seconds: number }>();
    time.set(word.speaker_label, perSpeaker);
    const entry = perSpeaker.get(keyOf(turn)) ?? { speaker: turn, seconds: 0 };
    perSpeaker.set(keyOf(turn), { speaker: entry.speaker, seconds: entry.seconds + overlap(word, turn) });
  }
  const mapped = new Map<string, Speaker>();
  for (const [label, perSpeaker] of time) {
    const best = [...perSpeaker.values()].reduce((a, b) => (b.seconds > a.seconds ? b : a));
    mapped.set(label, { name: best.speaker.name, participant_id: best.speaker.participant_id });
  }
  return mapped;
};

/**
 * Who said a word, by evidence in this order: the turn it overlaps most; the participant the provider's
 * label for it stands for; the nearest turn within `nearestTurnSeconds`; the provider's label itself
 * ("Speaker A"); nobody known.
 */
const speakerOf = (word: RecognizedWord, turns: readonly TimedTurn[], labels: Map<string, Speaker>, rules: AlignmentRules): Speaker => {
  const turn = overlappingTurn(word, turns) ?? (word.speaker_label === null ? null : labels.get(word.speaker_label)) ?? nearestTurn(word, turns, rules.nearestTurnSeconds);
  if (turn) return { name: turn.name, participant_id: turn.participant_id };
  return { name: word.speaker_label === null ? UNKNOWN_SPEAKER : `Speaker ${word.speaker_label}`, participant_id: null };
};

const utteranceOf = (speaker: Speaker, words: readonly TranscriptWord[], language: string | null): Utterance => {
  const confidences = words.flatMap((w) => (w.confidence === null ? [] : [w.confidence]));
  return {
    speaker: speaker.name,
    participant_id: speaker.participant_id,
    start: words[0]!.start,
    end: words[words.length - 1]!.end,
    text: words.map((w) => w.word).join(' '),
    language,
    confidence: confidences.length === 0 ? null : toMillisecond(confidences.reduce((a, b) => a + b, 0) / confidences.length),
    words,
  };
};

/** The diarized transcript of recognised words, given who the bot saw speaking when. */
export const attributeSpeakers = (input: AlignmentInput, rules: AlignmentRules = defaultAlignmentRules): DiarizedTranscript => {
  const words = [...input.words].sort((a, b) => a.start - b.start || a.end - b.end);
  const labels = participantsOfLabels(words, input.turns);
  const utterances: Utterance[] = [];
  let current: { speaker: Speaker; words: TranscriptWord[] } | null = null;
  for (const word of words) {
    const speaker = speakerOf(word, input.turns, labels, rules);
    const timed: TranscriptWord = { word: word.word, start: toMillisecond(word.start), end: toMillisecond(word.end), confidence: word.confidence };
    const previous = current?.words[current.words.length - 1];
    if (current && previous && keyOf(current.speaker) === keyOf(speaker) && word.start - previous.end <= rules.maxPauseSeconds) {
      current.words.push(timed);
      continue;
    }
    if (current) utterances.push(utteranceOf(current.speaker, current.words, input.language));
    current = { speaker, words: [timed] };
  }
  if (current) utterances.push(utteranceOf(current.speaker, current.words, input.language));
  const lastEnd = words.reduce((end, w) => Math.max(end, w.end), 0);
  return {
    utterances,
    languages: input.language === null ? [] : [input.language],
    total_utterances: utterances.length,
    total_duration: toMillisecond(input.duration ?? lastEnd),
  };
};
