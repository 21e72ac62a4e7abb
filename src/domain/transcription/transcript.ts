/**
 * Our transcript schema (docs/transcription.md): what every provider's output is normalised to, and the
 * diarized transcript built from it. Times are seconds from the start of the recording, to the
 * millisecond.
 */

/** One recognised word as a provider gives it, in our units. */
export interface RecognizedWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  /** 0 to 1; null where the provider gives none */
  readonly confidence: number | null;
  /** the provider's own speaker label ("0", "A", ...) where it diarizes; null otherwise */
  readonly speaker_label: string | null;
}

export interface TranscriptWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  readonly confidence: number | null;
}

/** Consecutive words of one speaker. */
export interface Utterance {
  /** the participant's display name, from the bot's speaker timeline */
  readonly speaker: string;
  /** the meeting platform's id of that participant; null when the words could not be tied to one */
  readonly participant_id: string | null;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly language: string | null;
  /** mean of the words' confidences; null when none has one */
  readonly confidence: number | null;
  readonly words: readonly TranscriptWord[];
}

/** The `result` of the diarized transcript artifact. */
export interface DiarizedTranscript {
  readonly utterances: readonly Utterance[];
  readonly languages: readonly string[];
  readonly total_utterances: number;
  /** seconds of audio transcribed */
  readonly total_duration: number;
}

/** Milliseconds are the precision of every time we keep; finer digits are float noise. */
export const toMillisecond = (seconds: number): number => Math.round(seconds * 1000) / 1000;
