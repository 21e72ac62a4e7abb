/**
 * Streaming latency: from a simulated participant's speech to the first frame carrying it at the
 * customer's WebSocket (p50/p95), against the sandbox's own audio path measured in the same run: the
 * time from the same speech request until the bot's page has started playing it (the sandbox's `speak`
 * answers once every in-call page acknowledged playback). The difference is what streaming adds: the
 * tab capture, the 100 ms framing, the page-to-node binding and the socket.
 *
 * One bot (real Chromium, in-process) in an mt sandbox meeting with streaming out at 16 kHz to a local
 * `ws` server; UTTERANCES short sentences, each after a silence. `npm run bench:streaming`.
 */
import { SpeechSynthesizer } from '../sandbox/tts';
import { startSandbox } from '../sandbox/server';
import { envelope, pcm16k } from '../test/bot-runtime/audio-checks';
import { framesOf, rmsOf, StreamReceiver } from '../test/bot-runtime/stream-receiver';
import { endBots, sleep, startBot } from '../test/bot-runtime/support';

const UTTERANCES = Number(process.env.UTTERANCES ?? 20);
const RATE = 16_000;
const LOUD = 0.01;
const SENTENCE = 'Hello there.';

const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

const main = async () => {
  const sb = await startSandbox({ port: 0 });
  const receiver = await StreamReceiver.start();
  // where the speech starts inside its own WAV (TTS leading silence), taken off the measured latency
  const speech = await new SpeechSynthesizer().synthesize(SENTENCE);
  const onsetMs = envelope(await pcm16k(speech.path)).findIndex((v) => v > LOUD) * 20;
  const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
  const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
  const bot = startBot(m.url, 'mt', { recording_mode: 'audio_only', streaming: { output_url: receiver.url('/out'), input_url: null, audio_frequency: RATE } });
  const toFrame: number[] = [];
  const toPlaying: number[] = [];
  try {
    await bot.reporter.waitForStatus('in_call_recording');
    await receiver.waitFor(() => receiver.on('/out').length === 1 && framesOf(receiver.on('/out')[0]!).length > 20, 'frames');
    const conn = receiver.on('/out')[0]!;
    for (let i = 0; i < UTTERANCES; i++) {
      const from = conn.messages.length;
      const askedAt = Date.now();
      const spoken = await sb.client.speak(m.meeting_id, alice.participant_id, SENTENCE);
      const playingAt = Date.now();
      await sleep(spoken.duration_seconds * 1000 + 1200);
      const loud = conn.messages.slice(from).find((x) => x.binary && rmsOf(x.binary) > LOUD);
      if (!loud || spoken.not_playing.length > 0) {
        console.log(`utterance ${i + 1}: not measured (${loud ? 'the page did not acknowledge playback' : 'no loud frame'})`);
        continue;
      }
      toFrame.push(loud.at - askedAt - onsetMs);
      toPlaying.push(playingAt - askedAt);
    }
  } finally {
    await endBots([bot]);
    await receiver.stop();
    await sb.stop();
  }
  const row = (name: string, xs: number[]) => `| ${name} | ${percentile(xs, 50).toFixed(0)} ms | ${percentile(xs, 95).toFixed(0)} ms |`;
  const added = toFrame.map((x, i) => x - toPlaying[i]!);
  console.log(`\n${toFrame.length} utterances measured, ${RATE} Hz, speech onset ${onsetMs} ms into its WAV\n`);
  console.log('| measure | p50 | p95 |');
  console.log('|---|---|---|');
  console.log(row("baseline: speech request -> the bot's page plays it (sandbox path)", toPlaying));
  console.log(row('speech request -> first frame with the speech at the receiver', toFrame));
  console.log(row('added by streaming (per utterance: frame - playing)', added));
  console.log(`\nratio p50: ${(percentile(toFrame, 50) / percentile(toPlaying, 50)).toFixed(2)} x the sandbox path`);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
