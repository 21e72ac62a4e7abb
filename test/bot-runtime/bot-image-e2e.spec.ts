/**
 * The bot's picture end to end: images served over HTTPS by a local server with a self-signed
 * certificate (trusted by the bot through the test-only BOT_TEST_CA_PEM), the bot in real Chromium, and
 * the sandbox showing the bot's camera: a frame's colours tell which image it shows.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { SandboxApiError } from '../../sandbox/client';
import { coloursOfFrames, solidImage, startImageServer, type ImageServer } from './image-checks';
import { endBots, sleep, startBot, tmpDir, type StartedBot } from './support';

describe("the bot's picture (bot_image) in the sandbox", function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  let images: ImageServer;
  let dir: string;
  let base = '';
  const running: StartedBot[] = [];
  const track = (bot: StartedBot) => (running.push(bot), bot);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    dir = tmpDir('bot-image-');
    images = await startImageServer(dir, {
      '/red.png': { type: 'image/png', body: await solidImage(dir, 'red.png', 'red') },
      '/blue.jpg': { type: 'image/jpeg', body: await solidImage(dir, 'blue.jpg', 'blue') },
      // says it is a PNG; it is not an image at all
      '/fake.png': { type: 'image/png', body: Buffer.from('<html>not an image</html>') },
    });
    base = images.base;
  });

  after(async () => {
    await images?.stop();
    await sb?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => endBots(running));

  const botInCall = async (bot_image: string[], config?: { mode: 'cycle' | 'static'; interval_seconds: number }) => {
    const m = await sb.client.createMeeting({ platform: 'mt', lobby: false });
    await sb.client.addSimulated(m.meeting_id, 'Alice');
    const bot = track(startBot(m.url, 'mt', { recording_mode: 'audio_only', bot_image, ...(config ? { bot_image_config: config } : {}) }));
    await bot.reporter.waitForStatus('in_call_recording');
    const botId = (await sb.client.waitForParticipant(m.meeting_id, 'in_call', 30_000, 'Rec Bot')).participant_id;
    return { m, bot, botId };
  };

  /** The colours of the next `frames` frames of the bot's video the sandbox shows (a frame a second). */
  const coloursSeen = (meetingId: string, botId: string, frames: number) => coloursOfFrames(sb.client, meetingId, botId, frames, dir);

  it('one image: the meeting sees the bot with it as its camera', async () => {
    const { m, botId } = await botInCall([`${base}/red.png`]);
    const seen = await coloursSeen(m.meeting_id, botId, 4);
    console.log(`      the bot's video in the sandbox: ${seen.join(', ')}`);
    assert.ok(seen.length === 4 && seen.every((c) => c === 'red'), seen.join(', '));
  });

  it('two images cycled every 2 s: both are shown in turn', async () => {
    const { m, botId } = await botInCall([`${base}/red.png`, `${base}/blue.jpg`], { mode: 'cycle', interval_seconds: 2 });
    const seen = await coloursSeen(m.meeting_id, botId, 8);
    console.log(`      the bot's video in the sandbox: ${seen.join(', ')}`);
    assert.ok(seen.includes('red') && seen.includes('blue'), seen.join(', '));
    assert.ok(seen.every((c) => c === 'red' || c === 'blue'), seen.join(', '));
  });

  it('static mode shows only the first image', async () => {
    const { m, botId } = await botInCall([`${base}/blue.jpg`, `${base}/red.png`], { mode: 'static', interval_seconds: 1 });
    const seen = await coloursSeen(m.meeting_id, botId, 4);
    assert.ok(seen.length === 4 && seen.every((c) => c === 'blue'), seen.join(', '));
  });

  it('images that cannot be fetched or are not images are logged; the bot joins without a picture', async () => {
    const { m, bot, botId } = await botInCall([`${base}/missing.png`, `${base}/fake.png`]);
    // An absence has no moment to wait for: the bot has been in the call for longer than a picture takes to
    // show (a frame a second), and the sandbox has none.
    await sleep(3000);
    await assert.rejects(sb.client.videoFrame(m.meeting_id, botId), (e) => e instanceof SandboxApiError && e.status === 404, 'the sandbox shows no video of the bot');
    const log = bot.log.text();
    assert.match(log, /bot image 1 left out \(127\.0\.0\.1:\d+\): HTTP 404/);
    assert.match(log, /bot image 2 left out \(127\.0\.0\.1:\d+\): not a JPEG, PNG or WebP image/);
    assert.match(log, /joining without a picture/);
  });

  it('an image server whose certificate is not trusted is left out too (TLS is never relaxed)', async () => {
    const saved = process.env.BOT_TEST_CA_PEM;
    delete process.env.BOT_TEST_CA_PEM;
    try {
      const { bot } = await botInCall([`${base}/red.png`]);
      assert.match(bot.log.text(), /bot image 1 left out \(127\.0\.0\.1:\d+\): its TLS certificate is not trusted/);
    } finally {
      process.env.BOT_TEST_CA_PEM = saved;
    }
  });
});
