/**
 * What tests of the bot's picture share: solid-colour images by ffmpeg, an HTTPS server with a
 * self-signed certificate serving them (trusted by the bot through the test-only BOT_TEST_CA_PEM),
 * and the colour of a participant's camera frame as the sandbox shows it.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { makeCertificate } from '../../sandbox/certificate';
import { SandboxApiError, type SandboxClient } from '../../sandbox/client';
import { sleep } from './support';

const run = promisify(execFile);

/** A 640x360 image of one colour, by ffmpeg. */
export const solidImage = async (dir: string, name: string, colour: string): Promise<Buffer> => {
  const file = path.join(dir, name);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=640x360`, '-frames:v', '1', file]);
  return fs.readFileSync(file);
};

/** The mean colour of the middle of a JPEG (decoded by ffmpeg). */
export const middleColour = async (jpeg: Buffer, dir: string): Promise<{ r: number; g: number; b: number }> => {
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

export const named = (c: { r: number; g: number; b: number }): string =>
  c.r > 150 && c.g < 90 && c.b < 90 ? 'red' : c.b > 150 && c.r < 90 && c.g < 90 ? 'blue' : `other(${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)})`;

export interface ImageServer {
  /** e.g. `https://127.0.0.1:40123` */
  readonly base: string;
  stop(): Promise<void>;
}

/**
 * Serves `files` (path -> type and body) over HTTPS with a fresh self-signed certificate, which
 * BOT_TEST_CA_PEM makes the bot trust until `stop()`; `answerAfterMs`: each answer that late (a slow host).
 */
export const startImageServer = async (dir: string, files: Record<string, { type: string; body: Buffer }>, options: { readonly answerAfterMs?: number } = {}): Promise<ImageServer> => {
  const cert = await makeCertificate();
  const caFile = path.join(dir, 'test-ca.pem');
  fs.writeFileSync(caFile, cert.certPem);
  process.env.BOT_TEST_CA_PEM = caFile;
  const server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, async (req, res) => {
    if (options.answerAfterMs) await sleep(options.answerAfterMs);
    const f = files[req.url ?? ''];
    if (!f) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length }).end(f.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      delete process.env.BOT_TEST_CA_PEM;
      await new Promise((r) => server.close(r));
    },
  };
};

/**
 * The colours of the next `frames` frames of a participant's video the sandbox shows (a frame a second),
 * read until that many came: at the machine's pace, bounded (fewer when the bound passes first).
 */
export const coloursOfFrames = async (client: SandboxClient, meetingId: string, participantId: string, frames: number, dir: string): Promise<string[]> => {
  const seen: string[] = [];
  const deadline = Date.now() + frames * 1000 + 20_000;
  let lastCount = 0;
  while (seen.length < frames && Date.now() < deadline) {
    const frame = await client.countedVideoFrame(meetingId, participantId).catch((err: unknown) => {
      if (err instanceof SandboxApiError && err.status === 404) return null;
      throw err;
    });
    if (frame !== null && frame.count > lastCount) {
      lastCount = frame.count;
      seen.push(named(await middleColour(frame.jpeg, dir)));
    } else {
      await sleep(250);
    }
  }
  return seen;
};
