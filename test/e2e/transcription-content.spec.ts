/**
 * What is said in a meeting comes out as words of the right speaker: two simulated participants say
 * known sentences with flite in a sandbox meeting, a bot (real Chromium, run in-process) records it,
 * the Default provider (PocketSphinx) transcribes the recording, and the bot's speaker timeline
 * attributes the words. The word error rate against the script is printed and must stay under 0.35.
 *
 * The sentences and voices are ones PocketSphinx decodes well through the whole path (flite, the page's
 * <audio>, tab capture, Opus, MP3): a content check needs a recogniser that is right, and the bound is
 * about our pipeline, not about PocketSphinx. Measured over repeated runs (docs/transcription.md).
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ParticipantsArtifact } from '../../bot-runtime/participants-log';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { PocketSphinxProvider } from '../../src/adapters/transcription/default-pocketsphinx';
import { attributeSpeakers } from '../../src/domain/transcription/attribute-speakers';
import { recordingOffset, speakerTimeline } from '../../src/domain/transcription/speaker-timeline';
import { wordErrorRate } from '../../src/domain/transcription/word-error-rate';
import { sleep, startBot, type StartedBot } from '../bot-runtime/support';

const VOICES = { Alice: 'slt', Bob: 'rms' } as const;
const SCRIPT: { speaker: keyof typeof VOICES; text: string }[] = [
  { speaker: 'Alice', text: 'the customer reported that the recording stopped after ten minutes' },
  { speaker: 'Bob', text: 'let us review the action items from last week' },
  { speaker: 'Alice', text: 'please share your screen so we can see the numbers' },
  { speaker: 'Bob', text: 'the server was down for two hours last night' },
  { speaker: 'Alice', text: 'does anyone have questions about the project' },
  { speaker: 'Bob', text: 'i think we should talk to the sales team first' },
];
/** silence between two sentences: longer than the bot's view of the speaker lags the audio */
const PAUSE_MS = 1500;

describe('meeting speech to a diarized transcript (sandbox, real Chromium bot, PocketSphinx)', function () {
  this.timeout(240_000);
  let sb: RunningSandbox;
  let bot: StartedBot | null = null;

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });

  after(async () => {
    if (bot) {
      await bot.control.send({ kind: 'leave' }).catch(() => undefined);
      await bot.done.catch(() => undefined);
      rmSync(bot.out, { recursive: true, force: true });
    }
    await sb?.stop();
  });

  it('each sentence is attributed to its speaker, and the words match the script (WER < 0.35)', async () => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    const ids: Record<string, string> = {};
    for (const [name, voice] of Object.entries(VOICES)) ids[name] = (await sb.client.addSimulated(m.meeting_id, name, { tts: 'flite', voice })).participant_id;

    bot = startBot(m.url, 'mt', { recording_mode: 'audio_only' });
    await bot.reporter.waitForStatus('in_call_recording');
    await sleep(1000);
    const spoken: { speaker: string; text: string; startedAtMs: number; seconds: number }[] = [];
    for (const line of SCRIPT) {
      const said = await sb.client.speak(m.meeting_id, ids[line.speaker]!, line.text);
      assert.deepEqual(said.not_playing, [], 'the bot page plays every sentence');
      spoken.push({ ...line, startedAtMs: Date.parse(said.started_at), seconds: said.duration_seconds });
      await sleep(said.duration_seconds * 1000 + PAUSE_MS);
    }
    await bot.control.send({ kind: 'leave' });
    const end = await bot.done;
    assert.equal(`${end.outcome} ${end.error_code}`, 'completed API_REQUEST');

    const recordingStart = bot.reporter.reports.find((r) => r.kind === 'status' && r.status === 'in_call_recording')!.at;
    const participants = JSON.parse(readFileSync(join(bot.out, 'participants.json'), 'utf8')) as ParticipantsArtifact;
    const transcript = await new PocketSphinxProvider().transcribe({ audio: { path: join(bot.out, 'recording.mp3') } });
    const clock = { started_at: recordingStart };
    const diarized = attributeSpeakers({
      words: transcript.words,
      turns: speakerTimeline(participants.speakers, clock, Date.parse(end.at)),
      language: transcript.language,
      duration: transcript.duration ?? undefined,
    });

    const heard = diarized.utterances.map((u) => u.text).join(' ');
    const errors = wordErrorRate(SCRIPT.map((l) => l.text).join(' '), heard);
    for (const u of diarized.utterances) console.log(`      ${u.start.toFixed(2)}-${u.end.toFixed(2)} ${u.speaker}: ${u.text}`);
    console.log(
      `      WER ${errors.wer.toFixed(3)} (${errors.substitutions} substituted, ${errors.deletions} missed, ${errors.insertions} inserted of ${errors.referenceWords} words)`,
    );

    // every word heard while a sentence played belongs to its speaker, and most of the sentence was heard
    const words = diarized.utterances.flatMap((u) => u.words.map((w) => ({ ...w, speaker: u.speaker, participant_id: u.participant_id })));
    for (const line of spoken) {
      const from = recordingOffset(clock, line.startedAtMs);
      // the page starts the audio on its next poll (up to 0.25 s late); the next sentence is 1.5 s away
      const inSentence = words.filter((w) => (w.start + w.end) / 2 >= from && (w.start + w.end) / 2 <= from + line.seconds + 0.75);
      const who = [...new Set(inSentence.map((w) => `${w.speaker} ${w.participant_id}`))];
      assert.deepEqual(who, [`${line.speaker} ${ids[line.speaker]}`], `"${line.text}" at ${from.toFixed(2)} s: heard ${JSON.stringify(inSentence.map((w) => `${w.speaker}: ${w.word}`))}`);
      assert.ok(inSentence.length >= line.text.split(' ').length / 2, `"${line.text}": only ${inSentence.length} words heard`);
    }
    // and in order: one utterance run per sentence, the speakers alternating as in the script
    const runs = diarized.utterances.map((u) => u.speaker).filter((s, i, all) => i === 0 || all[i - 1] !== s);
    assert.deepEqual(runs, SCRIPT.map((l) => l.speaker));
    assert.ok(errors.wer < 0.35, `WER ${errors.wer}`);
  });
});
