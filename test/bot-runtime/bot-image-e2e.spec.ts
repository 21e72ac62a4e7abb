/**
 * The bot's picture end to end: images served over HTTPS by a local server with a self-signed
 * certificate (trusted by the bot through the test-only BOT_TEST_CA_PEM), the bot in real Chromium, and
 * the sandbox showing the bot's camera: a frame's colours tell which image it shows.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { makeCertificate } from '../../sandbox/certificate';
import { SandboxApiError } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { endBots, sleep, startBot, tmpDir, type StartedBot } from './support';

const run = promisify(execFile);

/** A 640x360 image of one colour, by ffmpeg. */
const solidImage = async (dir: string, name: string, colour: string): Promise<Buffer> => {
  const file = path.join(dir, name);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=640x360`, '-frames:v', '1', file]);
  return fs.readFileSync(file);
};

/** The mean colour of the middle of a JPEG (decoded by ffmpeg). */
const middleColour = async (jpeg: Buffer, dir: string): Promise<{ r: number; g: number; b: number }> => {
  const file = path.join(dir, `frame-${Date.now()}.jpg`);
  fs.writeFileSync(file, jpeg);
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', file, '-vf', 'crop=iw/2:ih/2,scale=16:9', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
  });
  const px = stdout as unknown as Buffer;
  const sum = { r: 0, g: 0, b: 0 };
  for (let i = 0; i + 2 < px.length; i += 3) {
    sum.r += px[i]!;
    sum.g += px[i + 1]!;
    sum.b += px[i + 2]!;
  }
  const n = px.length / 3;
  return { r: sum.r / n, g: sum.g / n, b: sum.b / n };
};

const named = (c: { r: number; g: number; b: number }): string =>
  c.r > 150 && c.g < 90 && c.b < 90 ? 'red' : c.b > 150 && c.r < 90 && c.g < 90 ? 'blue' : `other(${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)})`;

describe("the bot's picture (bot_image) in the sandbox", function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  let images: https.Server;
  let dir: string;
  let base = '';
  const running: StartedBot[] = [];
  const track = (bot: StartedBot) => (running.push(bot), bot);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    dir = tmpDir('bot-image-');
    const cert = await makeCertificate();
    const caFile = path.join(dir, 'test-ca.pem');
    fs.writeFileSync(caFile, cert.certPem);
    process.env.BOT_TEST_CA_PEM = caFile;
    const files: Record<string, { type: string; body: Buffer }> = {
      '/red.png': { type: 'image/png', body: await solidImage(dir, 'red.png', 'red') },
      '/blue.jpg': { type: 'image/jpeg', body: await solidImage(dir, 'blue.jpg', 'blue') },
      // says it is a PNG; it is not an image at all
      '/fake.png': { type: 'image/png', body: Buffer.from('<html>not an image</html>') },
    };
    images = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
      const f = files[req.url ?? ''];
      if (!f) return res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length }).end(f.body);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });

  after(async () => {
    delete process.env.BOT_TEST_CA_PEM;
    await new Promise((r) => images?.close(r));
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

  /** The colours of the bot's video the sandbox shows, one read a second for `seconds`. */
  const coloursSeen = async (meetingId: string, botId: string, seconds: number): Promise<string[]> => {
    const seen: string[] = [];
    for (let i = 0; i < seconds; i++) {
      await sleep(1000);
      try {
        seen.push(named(await middleColour(await sb.client.videoFrame(meetingId, botId), dir)));
      } catch (err) {
        if (!(err instanceof SandboxApiError && err.status === 404)) throw err;
      }
    }
    return seen;
  };

  it('one image: the meeting sees the bot with it as its camera', async () => {
    const { m, botId } = await botInCall([`${base}/red.png`]);
    const seen = await coloursSeen(m.meeting_id, botId, 4);
    console.log(`      the bot's video in the sandbox: ${seen.join(', ')}`);
    assert.ok(seen.length >= 2 && seen.every((c) => c === 'red'), seen.join(', '));
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
    assert.ok(seen.length >= 2 && seen.every((c) => c === 'blue'), seen.join(', '));
  });

  it('images that cannot be fetched or are not images are logged; the bot joins without a picture', async () => {
    const { m, bot, botId } = await botInCall([`${base}/missing.png`, `${base}/fake.png`]);
    const seen = await coloursSeen(m.meeting_id, botId, 3);
    assert.deepEqual(seen, [], 'the sandbox shows no video of the bot');
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
      assert.match(bot.log.text(), /bot image 1 left out \(127\.0\.0\.1:\d+\): self-signed certificate/);
    } finally {
      process.env.BOT_TEST_CA_PEM = saved;
    }
  });
});
