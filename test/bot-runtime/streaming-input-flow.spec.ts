/**
 * The customer's input socket: a message larger than a few 100 ms frames is refused (the connection closes,
 * 1009), and when the page falls behind playing what arrives, the bot stops reading the socket, so the
 * customer's sender is slowed down by the kernel instead of the bot queueing without end; nothing is lost.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { BotLog } from '../../bot-runtime/bot-log';
import type { PageWorld } from '../../bot-runtime/browser/bot-world';
import { BotMedia } from '../../bot-runtime/media/bot-media';
import { AudioStreaming } from '../../bot-runtime/streaming/audio-streaming';
import { InputFlow, MAX_FRAMES_ON_THE_WAY } from '../../bot-runtime/streaming/input-flow';
import { frameBytes, MAX_MESSAGE_BYTES } from '../../bot-runtime/streaming/wire';
import { StreamReceiver } from './stream-receiver';

const RATE = 16_000;
const waitUntil = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

/** A meeting page that plays what it is handed, in order, only while it is not stuck. */
const standInPage = () => {
  const played: number[] = [];
  let release: () => void = () => undefined;
  let stuck: Promise<void> = Promise.resolve();
  const page = {
    isClosed: () => false,
    evaluateOnNewDocument: async () => undefined,
    evaluate: async (_fn: unknown, b64: string) => {
      await stuck;
      played.push(Buffer.from(b64, 'base64').readUInt32LE(0));
      return 0;
    },
  };
  return {
    page: page as unknown as Page,
    played,
    stick: () => (stuck = new Promise((resolve) => (release = resolve))),
    unstick: () => release(),
  };
};

const noWorld: PageWorld = { expose: async () => undefined, addScript: async () => undefined, evaluate: async () => undefined as never };

describe("the customer's streaming input", function () {
  this.timeout(60_000);
  let receiver: StreamReceiver;
  before(async () => (receiver = await StreamReceiver.start()));
  after(() => receiver.stop());

  const inputFrom = async (path: string, onInput: (frame: Buffer) => void) => {
    const streaming = new AudioStreaming(
      { input_url: receiver.url(path), output_url: null, audio_frequency: RATE },
      { botId: 'b', extraCa: null, publicOnly: false, log: new BotLog(null), onInput: (frame) => onInput(frame) },
    );
    await streaming.connect();
    await receiver.waitFor(() => receiver.on(path).length === 1, 'the connection');
    return { streaming, conn: receiver.on(path)[0]! };
  };

  it('refuses a message larger than four 100 ms frames at 48 kHz: the connection closes (1009), nothing is played', async () => {
    assert.equal(MAX_MESSAGE_BYTES, 4 * frameBytes(48_000));
    const got: number[] = [];
    const { streaming, conn } = await inputFrom('/too-large', (frame) => got.push(frame.length));
    let closedWith = 0;
    conn.socket.on('close', (code) => (closedWith = code));
    conn.socket.send(Buffer.alloc(frameBytes(48_000)));
    conn.socket.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1));
    await waitUntil(() => closedWith !== 0);
    assert.equal(closedWith, 1009);
    assert.deepEqual(got, [frameBytes(48_000)]);
    streaming.close();
  });

  it('stops reading while the page is behind, so the sender waits; then plays every frame in order', async () => {
    const { page, played, stick, unstick } = standInPage();
    let handed = 0;
    let mostWaiting = 0;
    let media: BotMedia | null = null;
    const { streaming, conn } = await inputFrom('/fast', (frame) => {
      handed++;
      mostWaiting = Math.max(mostWaiting, handed - played.length);
      media!.playInput(frame);
    });
    media = new BotMedia({ streaming, images: [], imageConfig: { mode: 'static', interval_seconds: 10 }, log: new BotLog(null) });
    await media.install(page, noWorld);

    stick();
    // far more than the kernel's buffers hold (12 MB): only a socket that is read drains it
    const frames = 4000;
    for (let i = 0; i < frames; i++) conn.socket.send(numbered(i));
    await waitUntil(() => streaming.inputPaused);
    await waitUntil(() => conn.socket.bufferedAmount > 0); // the customer's side cannot hand its frames over
    assert.ok(handed < frames / 4, `the bot read ${handed} of ${frames} frames while the page was stuck`);

    unstick();
    await waitUntil(() => played.length === frames);
    assert.deepEqual(played, Array.from({ length: frames }, (_, i) => i), 'every frame, in order');
    assert.ok(mostWaiting < frames / 4, `${mostWaiting} frames waited for the page at most`);
    assert.equal(streaming.inputPaused, false, 'reading again');
    media.close();
    streaming.close();
  });

  it('holds the input past a mark of frames on the way or of seconds of audio waiting in the page, and lets go below', async () => {
    const holds: boolean[] = [];
    const flow = new InputFlow((held) => holds.push(held));
    for (let i = 0; i < MAX_FRAMES_ON_THE_WAY; i++) flow.handing();
    assert.deepEqual(holds, [true]);
    for (let i = 0; i < MAX_FRAMES_ON_THE_WAY - 2; i++) flow.handed(0);
    assert.deepEqual(holds, [true, false]);
    flow.handing();
    flow.handed(2.2); // 2.2 s of audio scheduled ahead: held until about 1 s is left
    assert.deepEqual(holds, [true, false, true]);
    await waitUntil(() => holds.length === 4);
    assert.deepEqual(holds, [true, false, true, false]);
    flow.close();
  });
});

/** A 100 ms frame whose first four bytes number it. */
const numbered = (i: number): Buffer => {
  const frame = Buffer.alloc(frameBytes(RATE));
  frame.writeUInt32LE(i, 0);
  return frame;
};
