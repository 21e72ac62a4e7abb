/**
 * The bot's own voice (streaming input) and picture (`bot_image`) on the Meet, Teams and Zoom
 * replicas, in-process (real Chromium reaching the real hosts through SANDBOX_REPLICAS): the driver
 * asks to join with microphone and camera on, and in the call a simulated participant hears the
 * customer's audio from the bot (level, and the words with PocketSphinx) and sees the bot's image
 * (a frame's colours). Without those options the drivers join with both off: the replica suites
 * (test/e2e/*-replica-bots.spec.ts) check that.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Platform } from '../../contract/bot-contract';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { fliteWav, hasFlite, hasPocketsphinx, pcm16k, speechPlayedOut, wordRecall, wordsInWav } from './audio-checks';
import { coloursOfFrames, solidImage, startImageServer, type ImageServer } from './image-checks';
import { sendAtRealTime, StreamReceiver } from './stream-receiver';
import { endBots, endOutcome, startReplicaBot, tmpDir, type StartedBot } from './support';

interface ReplicaCase {
  readonly name: string;
  readonly platform: Platform;
  readonly meeting: CreateMeetingRequest;
  /** Zoom hears a microphone only once computer audio is joined (after admission): the page says so */
  readonly audioJoined?: (sb: RunningSandbox, meetingId: string, botId: string) => Promise<unknown>;
}

const cases: ReplicaCase[] = [
  { name: 'Google Meet', platform: 'mt', meeting: { platform: 'mt', replica: 'meet', lobby: true } },
  { name: 'Microsoft Teams', platform: 'tm', meeting: { platform: 'tm', replica: 'teams', lobby: true } },
  {
    name: 'Zoom',
    platform: 'vc',
    meeting: { platform: 'vc', replica: 'zoom', lobby: true },
    audioJoined: (sb, meetingId, botId) =>
      sb.client.waitFor(meetingId, (v) => v.events.some((e) => e.type === 'media' && e.participant_id === botId && e.detail?.startsWith('microphone=true')), 20_000, 'computer audio joined, live'),
  },
];

describe("the bot's own voice and picture on the replicas (in-process, Chromium)", function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  let images: ImageServer;
  let receiver: StreamReceiver;
  let dir: string;
  const running: StartedBot[] = [];

  before(async function () {
    if (!hasFlite()) this.skip();
    sb = await startSandbox({ port: 0 });
    dir = tmpDir('own-media-');
    images = await startImageServer(dir, { '/red.png': { type: 'image/png', body: await solidImage(dir, 'red.png', 'red') } });
  });
  after(async () => {
    await images?.stop();
    await sb?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    receiver = await StreamReceiver.start();
  });
  afterEach(async () => {
    await endBots(running);
    await receiver.stop();
  });

  for (const c of cases) {
    it(`${c.name}: joins with microphone and camera on; a participant hears the input socket's audio and sees the image`, async () => {
      const m = await sb.client.createMeeting(c.meeting);
      const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
      const bot = startReplicaBot(sb, m.url, c.platform, {
        streaming: { input_url: receiver.url('/in'), output_url: null, audio_frequency: 16_000 },
        bot_image: [`${images.base}/red.png`],
      });
      running.push(bot);

      const waiting = await sb.client.waitForParticipant(m.meeting_id, 'lobby', 60_000, 'Rec Bot');
      assert.deepEqual([waiting.microphone, waiting.camera], [true, true], 'asked to join with its own microphone and camera on');
      await sb.client.admit(m.meeting_id, waiting.participant_id);
      await bot.reporter.waitForStatus('in_call_recording');
      await receiver.waitFor(() => receiver.on('/in').length === 1, 'the input connection');
      await c.audioJoined?.(sb, m.meeting_id, waiting.participant_id);

      const sentence = 'the customer reported that the recording stopped after ten minutes';
      const pcm = Buffer.from((await pcm16k(await fliteWav(sentence, `${dir}/said-${c.platform}.wav`))).buffer);
      await sendAtRealTime(receiver.on('/in')[0]!, pcm, 16_000);
      // meanwhile the camera went on sending: the picture is checked while the speech drains
      const seen = await coloursOfFrames(sb.client, m.meeting_id, waiting.participant_id, 3, dir);
      console.log(`      ${c.name}: the bot's video as Alice sees it: ${seen.join(', ')}`);
      assert.ok(seen.length === 3 && seen.every((colour) => colour === 'red'), seen.join(', '));

      await speechPlayedOut(sb.client, m.meeting_id, alice.participant_id);
      const heard = await sb.client.heard(m.meeting_id, alice.participant_id);
      console.log(`      ${c.name}: Alice heard ${heard.seconds.toFixed(1)} s from ${heard.from.join(', ')}, peak RMS ${heard.peak_rms_100ms.toFixed(3)}`);
      assert.deepEqual(heard.from, [waiting.participant_id], 'what Alice heard came from the bot');
      assert.ok(heard.peak_rms_100ms > 0.02, `peak RMS ${heard.peak_rms_100ms}`);
      if (hasPocketsphinx()) {
        const wav = `${dir}/heard-${c.platform}.wav`;
        fs.writeFileSync(wav, await sb.client.heardWav(m.meeting_id, alice.participant_id));
        const words = await wordsInWav(wav, dir);
        const recall = wordRecall(sentence.split(' '), words);
        console.log(`      ${c.name}: pocketsphinx on what Alice heard: "${words.join(' ')}" (recall ${recall.toFixed(2)})`);
        assert.ok(recall >= 0.6, `recall ${recall}`);
      }

      const inCall = (await sb.client.getMeeting(m.meeting_id)).participants.find((p) => p.participant_id === waiting.participant_id)!;
      assert.deepEqual([inCall.microphone, inCall.camera], [true, true], 'still unmuted with the camera on in the call');
      await bot.control.send({ kind: 'leave' });
      assert.equal(endOutcome(await bot.done), 'completed API_REQUEST');
    });
  }
});
