/**
 * Streaming end to end: real Chromium, the in-process sandbox, the bot in-process, and a real `ws`
 * server as the customer's endpoint. Audio out (handshake, exact 100 ms frames, the participant's
 * speech in them, speaker state), setup failure, a drop and the reconnection, and what is charged.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { EndReport, StreamingJob } from '../../contract/bot-contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { SpeechSynthesizer } from '../../sandbox/tts';
import { bestEnvelopeMatch, envelope, fliteWav, hasFlite, hasPocketsphinx, pcm16k, rawToWav, speechPlayedOut, wordRecall, wordsInWav } from './audio-checks';
import { framesOf, rmsOf, sendAtRealTime, StreamReceiver, textsOf } from './stream-receiver';
import { freePort } from '../support/free-port';
import { endBots, sleep, startBot, tmpDir, type StartedBot } from './support';

describe('streaming end to end (Chromium + sandbox + ws)', function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  let receiver: StreamReceiver;
  const running: StartedBot[] = [];
  const track = (bot: StartedBot) => (running.push(bot), bot);

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb?.stop();
  });
  beforeEach(async () => {
    receiver = await StreamReceiver.start();
  });
  afterEach(async () => {
    await endBots(running);
    await receiver.stop();
  });

  const streamingBot = async (streaming: StreamingJob) => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
    const bot = track(startBot(m.url, 'mt', { recording_mode: 'audio_only', streaming }));
    return { m, alice, bot };
  };

  const endOf = async (bot: StartedBot): Promise<EndReport> => {
    await bot.control.send({ kind: 'leave' });
    return bot.done;
  };

  it('output: the handshake, then frames of exactly 100 ms every 100 ms carrying the speech, and speaker state', async () => {
    const rate = 24_000;
    const { m, alice, bot } = await streamingBot({ output_url: receiver.url('/out'), input_url: null, audio_frequency: rate });
    await bot.reporter.waitForStatus('in_call_recording');
    await receiver.waitFor(() => receiver.on('/out').length === 1 && framesOf(receiver.on('/out')[0]!).length >= 10, 'the first frames');
    const conn = receiver.on('/out')[0]!;
    const quietUntil = conn.messages.length;
    // flite, so that PocketSphinx can read the words back
    const sentence = 'we need to fix the bot before friday';
    const spoken = await sb.client.speak(m.meeting_id, alice.participant_id, sentence, { tts: 'flite' });
    await sleep(spoken.duration_seconds * 1000 + 1500);
    const end = await endOf(bot);
    assert.equal(end.outcome, 'completed', end.error_message);

    // the handshake comes first, as text
    const first = conn.messages[0]!;
    assert.ok(first.text !== null, 'the first message is text');
    const hello = JSON.parse(first.text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(hello).sort(), ['bot_id', 'offset', 'protocol_version', 'sample_rate']);
    assert.equal(hello.bot_id, bot.job.bot_id);
    assert.equal(hello.sample_rate, rate);
    assert.equal(hello.protocol_version, 2);
    assert.equal(hello.offset, 0, 'connected before the recording started');

    // every frame is exactly 100 ms of S16LE mono
    const frames = framesOf(conn);
    assert.ok(frames.length >= 30, `${frames.length} frames`);
    for (const f of frames) assert.equal(f.binary!.length, (rate / 10) * 2);
    // cadence: the frames of the whole recording arrive at 10 per second on average
    const spanMs = frames[frames.length - 1]!.at - frames[0]!.at;
    const meanGap = spanMs / (frames.length - 1);
    console.log(`      ${frames.length} frames of ${(rate / 10) * 2} bytes, mean gap ${meanGap.toFixed(1)} ms`);
    assert.ok(meanGap > 90 && meanGap < 110, `mean gap ${meanGap} ms`);

    // the speech is in the frames: far louder than the frames before it
    const before = conn.messages.slice(1, quietUntil).filter((x) => x.binary).map((x) => rmsOf(x.binary!));
    const after = conn.messages.slice(quietUntil).filter((x) => x.binary).map((x) => rmsOf(x.binary!));
    const loudest = Math.max(...after);
    const quietest = Math.max(...before);
    console.log(`      RMS before the speech ${quietest.toFixed(4)}, loudest during it ${loudest.toFixed(4)}`);
    assert.ok(loudest > 0.02 && loudest > quietest * 10, `speech RMS ${loudest} vs before ${quietest}`);

    // what was said: the streamed audio's loudness follows the sandbox's own WAV of the sentence
    const dir = tmpDir('stream-audio-');
    const source = await new SpeechSynthesizer().synthesize(sentence, 'rms', 'flite');
    const streamedPcm = Buffer.concat(conn.messages.slice(quietUntil).flatMap((x) => (x.binary ? [x.binary] : [])));
    const streamed = await rawToWav(streamedPcm, rate, `${dir}/streamed.wav`);
    const match = bestEnvelopeMatch(envelope(await pcm16k(source.path)), envelope(await pcm16k(streamed)));
    console.log(`      envelope correlation with the source ${match.correlation.toFixed(2)} at ${match.lag * 20} ms`);
    assert.ok(match.correlation > 0.8, `correlation ${match.correlation}`);
    // and the words: PocketSphinx reads the sentence in the streamed audio
    if (hasPocketsphinx()) {
      const words = await wordsInWav(streamed, dir);
      const recall = wordRecall(sentence.split(' '), words);
      console.log(`      pocketsphinx on the stream: "${words.join(' ')}" (recall ${recall.toFixed(2)})`);
      assert.ok(recall >= 0.6, `recall ${recall}`);
    } else {
      console.log('      pocketsphinx is not installed: the words are not checked');
    }
    fs.rmSync(dir, { recursive: true, force: true });

    // speaker state: JSON arrays, Alice speaking at some point
    const states = textsOf(conn).slice(1).map((t) => JSON.parse(t) as { name: string; isSpeaking: boolean; timestamp: number; id: unknown }[]);
    assert.ok(states.length >= 1, 'speaker state was sent');
    for (const s of states) assert.ok(Array.isArray(s));
    assert.ok(states.some((s) => s.some((p) => p.name === 'Alice' && p.isSpeaking)), JSON.stringify(states));

    // charged for the time connected while recording: about the recorded time, never more
    assert.ok(end.streaming_seconds, 'the end report carries the streaming time');
    assert.equal(end.streaming_seconds.input, 0);
    assert.ok(end.streaming_seconds.output > 0 && end.streaming_seconds.output <= end.recorded_seconds + 0.5, JSON.stringify(end));
  });

  it('input: audio sent on the socket is heard in the meeting as the bot speaking (one socket for both directions)', async function () {
    if (!hasFlite()) this.skip();
    const rate = 16_000;
    const url = receiver.url('/both');
    const { m, alice, bot } = await streamingBot({ output_url: url, input_url: url, audio_frequency: rate });
    await bot.reporter.waitForStatus('in_call_recording');
    await receiver.waitFor(() => receiver.on('/both').length === 1, 'the connection');
    const conn = receiver.on('/both')[0]!;
    const botId = (await sb.client.waitForParticipant(m.meeting_id, 'in_call', 30_000, 'Rec Bot')).participant_id;

    // the customer talks: flite speech, S16LE at the chosen rate, 100 ms per message at real-time pace
    const dir = tmpDir('stream-input-');
    const sentence = 'the customer reported that the recording stopped after ten minutes';
    const pcm = Buffer.from((await pcm16k(await fliteWav(sentence, `${dir}/said.wav`))).buffer);
    await sendAtRealTime(conn, pcm, rate);
    await speechPlayedOut(sb.client, m.meeting_id, alice.participant_id);
    const heard = await sb.client.heard(m.meeting_id, alice.participant_id);
    console.log(`      Alice heard ${heard.seconds.toFixed(1)} s from ${heard.from.join(', ')}, peak RMS ${heard.peak_rms_100ms.toFixed(3)}`);
    assert.deepEqual(heard.from, [botId], 'what Alice heard came from the bot');
    assert.ok(heard.peak_rms_100ms > 0.02, `peak RMS ${heard.peak_rms_100ms}`);
    if (hasPocketsphinx()) {
      fs.writeFileSync(`${dir}/heard.wav`, await sb.client.heardWav(m.meeting_id, alice.participant_id));
      const expected = sentence.split(' ');
      const words = await wordsInWav(`${dir}/heard.wav`, dir);
      const recall = wordRecall(expected, words);
      console.log(`      pocketsphinx on what Alice heard: "${words.join(' ')}" (recall ${recall.toFixed(2)})`);
      assert.ok(recall >= 0.6, `recall ${recall}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(receiver.connections.length, 1, 'one socket carries both directions');
    assert.ok(framesOf(conn).length > 10, 'and the meeting audio went out on it');
    const end = await endOf(bot);
    assert.ok(end.streaming_seconds!.input > 0 && end.streaming_seconds!.output > 0, JSON.stringify(end.streaming_seconds));
  });

  it('while the recording is paused (vc: the host withdrew the permission) no audio leaves and no time is charged', async () => {
    const m = await sb.client.createMeeting({ platform: 'vc', lobby: false, recording_permission: 'grant' });
    const bot = track(startBot(m.url, 'vc', { recording_mode: 'audio_only', streaming: { output_url: receiver.url('/out'), input_url: null, audio_frequency: 16_000 } }));
    const pid = (await sb.client.waitForParticipant(m.meeting_id, 'in_call', 45_000, 'Rec Bot')).participant_id;
    await bot.reporter.waitForStatus('in_call_recording');
    await receiver.waitFor(() => receiver.on('/out').length === 1 && framesOf(receiver.on('/out')[0]!).length >= 10, 'the first frames');
    await sb.client.answerRecording(m.meeting_id, pid, false);
    await bot.reporter.waitForStatus('recording_paused');
    const conn = receiver.on('/out')[0]!;
    // frames already on their way arrive at the machine's pace: the pause counts from when none came for 1 s
    let atPause = framesOf(conn).length;
    for (let quietSince = Date.now(), deadline = Date.now() + 15_000; Date.now() - quietSince < 1000 && Date.now() < deadline; await sleep(100)) {
      if (framesOf(conn).length !== atPause) [atPause, quietSince] = [framesOf(conn).length, Date.now()];
    }
    // an absence has no moment to wait for: two more seconds of the pause must bring no frame
    await sleep(2000);
    const duringPause = framesOf(conn).length - atPause;
    await sb.client.answerRecording(m.meeting_id, pid, true);
    await bot.reporter.waitForStatus('recording_resumed');
    await receiver.waitFor(() => framesOf(conn).length >= atPause + duringPause + 10, 'frames again after the pause');
    const end = await endOf(bot);
    assert.equal(duringPause, 0, `${duringPause} frames went out during the pause`);
    console.log(`      recorded ${end.recorded_seconds} s, streaming charged for ${end.streaming_seconds!.output} s`);
    assert.ok(end.streaming_seconds!.output <= end.recorded_seconds - 1.5, JSON.stringify(end));
  });

  it('a refused connection ends the bot STREAMING_SETUP_FAILED before it joins', async () => {
    const closed = await freePort();
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    const bot = track(startBot(m.url, 'mt', { streaming: { output_url: `ws://127.0.0.1:${closed}/out`, input_url: null, audio_frequency: 16_000 } }));
    const end = await bot.done;
    assert.equal(`${end.outcome} ${end.error_code}`, 'failed STREAMING_SETUP_FAILED');
    // what a port scanner would want (the system's error, the address behind) is not told
    assert.equal(end.error_message, `Streaming could not be set up: streaming output ws://127.0.0.1:${closed}/out: the connection failed`);
    assert.equal(end.recorded_seconds, 0);
    const view = await sb.client.getMeeting(m.meeting_id);
    assert.ok(!view.participants.some((p) => p.kind === 'browser'), 'the meeting never saw the bot');
  });

  it('a wss endpoint whose certificate the bot does not trust is a setup failure (TLS is never relaxed)', async () => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    const bot = track(startBot(m.url, 'mt', { streaming: { output_url: `wss://127.0.0.1:${sb.port}/stream`, input_url: null, audio_frequency: 16_000 } }));
    const end = await bot.done;
    assert.equal(`${end.outcome} ${end.error_code}`, 'failed STREAMING_SETUP_FAILED', end.error_message);
    assert.match(end.error_message, /its TLS certificate is not trusted/);
  });

  it('a drop reconnects with a fresh handshake while the recording goes on; only connected time is charged', async () => {
    const { bot } = await streamingBot({ output_url: receiver.url('/out'), input_url: null, audio_frequency: 16_000 });
    await bot.reporter.waitForStatus('in_call_recording');
    await receiver.waitFor(() => receiver.on('/out').length === 1 && framesOf(receiver.on('/out')[0]!).length >= 10, 'the first frames');
    const droppedAt = Date.now();
    receiver.on('/out')[0]!.socket.terminate();
    // the server refuses nothing: the bot comes back after its first wait (1 s)
    await receiver.waitFor(() => receiver.on('/out').length === 2 && framesOf(receiver.on('/out')[1]!).length >= 10, 'the reconnection');
    const again = receiver.on('/out')[1]!;
    const gapSeconds = (again.openedAt - droppedAt) / 1000;
    const hello = JSON.parse(again.messages[0]!.text!) as { offset: number; sample_rate: number };
    assert.equal(hello.sample_rate, 16_000);
    assert.ok(hello.offset > 1, `the new handshake's offset says where the recording is: ${hello.offset}`);
    for (const f of framesOf(again)) assert.equal(f.binary!.length, 3200);
    await sleep(1000);
    const end = await endOf(bot);
    assert.equal(`${end.outcome} ${end.error_code}`, 'completed API_REQUEST', end.error_message);
    assert.ok(!bot.reporter.statuses().includes('recording_paused'), 'the recording went on');
    const output = end.streaming_seconds!.output;
    console.log(`      recorded ${end.recorded_seconds} s, down ${gapSeconds.toFixed(1)} s, streaming charged for ${output} s`);
    assert.ok(output <= end.recorded_seconds - gapSeconds + 0.5, `charged ${output} s of ${end.recorded_seconds} s with ${gapSeconds} s down`);
    assert.ok(output > 0);
  });
});
