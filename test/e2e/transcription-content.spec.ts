/**
 * What is said in a meeting comes out as words of the right speaker: two simulated participants say
 * known sentences with flite in a sandbox meeting, a bot (real Chromium, run in-process) records it,
 * the Default provider (PocketSphinx) transcribes the recording, and the bot's speaker timeline
 * attributes the words. The word error rate against the script is printed and must stay under 0.35.
 * (The same through the API: transcription-api-content.spec.ts.)
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ParticipantsArtifact } from '../../bot-runtime/participants-log';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { PocketSphinxProvider } from '../../src/adapters/transcription/default-pocketsphinx';
import { attributeSpeakers } from '../../src/domain/transcription/attribute-speakers';
import { speakerTimeline } from '../../src/domain/transcription/speaker-timeline';
import { sleep, startBot, type StartedBot } from '../bot-runtime/support';
import { addSpeakers, checkDiarized, sayScript } from '../support/spoken-script';

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
    const ids = await addSpeakers(sb.client, m.meeting_id);

    bot = startBot(m.url, 'mt', { recording_mode: 'audio_only' });
    await bot.reporter.waitForStatus('in_call_recording');
    await sleep(1000);
    const spoken = await sayScript(sb.client, m.meeting_id, ids);
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
    checkDiarized(diarized, spoken, clock, ids);
  });
});
