/**
 * The diarized transcript in the legacy API's two shapes: the `complete` webhook's `transcript` (the
 * spec: `[{speaker, words: [{start, end, word}]}]`, times numeric) and `meeting_data`'s `transcripts`
 * (the spec's segment record; ids are positions, as the peers' numeric ids are to us).
 */
import type { DiarizedTranscript } from './transcript';

export const legacyCompleteTranscript = (result: DiarizedTranscript) =>
  result.utterances.map((u) => ({
    speaker: u.speaker,
    start_time: u.start,
    end_time: u.end,
    words: u.words.map((w) => ({ start: w.start, end: w.end, word: w.word })),
  }));

export const legacyMeetingTranscripts = (result: DiarizedTranscript, legacyBotId: number) => {
  let wordId = 0;
  return result.utterances.map((u, index) => ({
    bot_id: legacyBotId,
    end_time: u.end,
    id: index + 1,
    lang: u.language ?? '',
    speaker: u.speaker,
    start_time: u.start,
    user_id: null,
    words: u.words.map((w) => ({ bot_id: legacyBotId, end_time: w.end, id: ++wordId, start_time: w.start, text: w.word, user_id: null })),
  }));
};

/** The diarized transcript inside the `transcription` artifact's bytes; null when they are not one. */
export const diarizedTranscriptIn = (bytes: Buffer | null): DiarizedTranscript | null => {
  if (bytes === null) return null;
  try {
    const document = JSON.parse(bytes.toString('utf8')) as { result?: DiarizedTranscript };
    return Array.isArray(document.result?.utterances) ? document.result : null;
  } catch {
    return null;
  }
};
