/**
 * The content tests' meeting: two simulated participants say known sentences with flite, and what a
 * transcript made of the recording must show (each sentence's words to its speaker, the speakers in the
 * script's order, the word error rate printed and bounded).
 *
 * The sentences and voices are ones PocketSphinx decodes well through the whole path (flite, the page's
 * <audio>, tab capture, Opus, MP3): a content check needs a recogniser that is right, and the bound is
 * about our pipeline, not about PocketSphinx. Measured over repeated runs (docs/transcription.md).
 */
import assert from 'node:assert/strict';
import type { SandboxClient } from '../../sandbox/client';
import type { DiarizedTranscript } from '../../src/domain/transcription/transcript';
import { recordingOffset, type RecordingClock } from '../../src/domain/transcription/speaker-timeline';
import { wordErrorRate } from '../../src/domain/transcription/word-error-rate';

export const VOICES = { Alice: 'slt', Bob: 'rms' } as const;
export const SCRIPT: { speaker: keyof typeof VOICES; text: string }[] = [
  { speaker: 'Alice', text: 'the customer reported that the recording stopped after ten minutes' },
  { speaker: 'Bob', text: 'let us review the action items from last week' },
  { speaker: 'Alice', text: 'please share your screen so we can see the numbers' },
  { speaker: 'Bob', text: 'the server was down for two hours last night' },
  { speaker: 'Alice', text: 'does anyone have questions about the project' },
  { speaker: 'Bob', text: 'i think we should talk to the sales team first' },
];
/** silence between two sentences: longer than the bot's view of the speaker lags the audio */
const PAUSE_MS = 1500;
/** the content tests' bound: loose enough for PocketSphinx */
export const MAX_WER = 0.35;

export interface SpokenLine {
  readonly speaker: string;
  readonly text: string;
  readonly startedAtMs: number;
  readonly seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Alice and Bob join the meeting with their flite voices; their participant ids by name. */
export const addSpeakers = async (client: SandboxClient, meetingId: string): Promise<Record<string, string>> => {
  const ids: Record<string, string> = {};
  for (const [name, voice] of Object.entries(VOICES)) ids[name] = (await client.addSimulated(meetingId, name, { tts: 'flite', voice })).participant_id;
  return ids;
};

/** Says the script, one sentence after the other, each played on every page (the bot's included). */
export const sayScript = async (client: SandboxClient, meetingId: string, ids: Record<string, string>): Promise<SpokenLine[]> => {
  const spoken: SpokenLine[] = [];
  for (const line of SCRIPT) {
    const said = await client.speak(meetingId, ids[line.speaker]!, line.text);
    assert.deepEqual(said.not_playing, [], 'the bot page plays every sentence');
    spoken.push({ ...line, startedAtMs: Date.parse(said.started_at), seconds: said.duration_seconds });
    await sleep(said.duration_seconds * 1000 + PAUSE_MS);
  }
  return spoken;
};

/** Every word heard while a sentence played belongs to its speaker; the speakers alternate as scripted; WER printed, returned. */
export const checkDiarized = (diarized: DiarizedTranscript, spoken: readonly SpokenLine[], clock: RecordingClock, ids: Record<string, string>): number => {
  const heard = diarized.utterances.map((u) => u.text).join(' ');
  const errors = wordErrorRate(SCRIPT.map((l) => l.text).join(' '), heard);
  for (const u of diarized.utterances) console.log(`      ${u.start.toFixed(2)}-${u.end.toFixed(2)} ${u.speaker}: ${u.text}`);
  console.log(
    `      WER ${errors.wer.toFixed(3)} (${errors.substitutions} substituted, ${errors.deletions} missed, ${errors.insertions} inserted of ${errors.referenceWords} words)`,
  );

  const words = diarized.utterances.flatMap((u) => u.words.map((w) => ({ ...w, speaker: u.speaker, participant_id: u.participant_id })));
  for (const line of spoken) {
    const from = recordingOffset(clock, line.startedAtMs);
    // the page starts the audio on its next poll (up to 0.25 s late); the next sentence is 1.5 s away
    const inSentence = words.filter((w) => (w.start + w.end) / 2 >= from && (w.start + w.end) / 2 <= from + line.seconds + 0.75);
    const who = [...new Set(inSentence.map((w) => `${w.speaker} ${w.participant_id}`))];
    assert.deepEqual(who, [`${line.speaker} ${ids[line.speaker]}`], `"${line.text}" at ${from.toFixed(2)} s: heard ${JSON.stringify(inSentence.map((w) => `${w.speaker}: ${w.word}`))}`);
    assert.ok(inSentence.length >= line.text.split(' ').length / 2, `"${line.text}": only ${inSentence.length} words heard`);
  }
  const runs = diarized.utterances.map((u) => u.speaker).filter((s, i, all) => i === 0 || all[i - 1] !== s);
  assert.deepEqual(runs, SCRIPT.map((l) => l.speaker));
  assert.ok(errors.wer < MAX_WER, `WER ${errors.wer}`);
  return errors.wer;
};
