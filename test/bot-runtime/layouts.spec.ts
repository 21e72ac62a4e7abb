/**
 * speaker_view and gallery_view record different pictures: two in-process bots in one sandbox
 * meeting with two other participants, one per mode; each bot sets its page's layout (the sandbox's
 * `layout-speaker` / `layout-gallery`), and a frame of each recording shows one tile (the speaker's)
 * or everyone's tiles. Tiles are the only large areas in the theme's accent colour, so the frame's
 * columns holding a tall run of that colour are the tiles, side by side.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { RecordingMode } from '../../contract/bot-contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { endBots, sleep, startBot, type StartedBot } from './support';

const run = promisify(execFile);

/** the tm sandbox theme's accent (sandbox/pages/meeting-page.ts), the tiles' colour */
const ACCENT = [0x5b, 0x5f, 0xc7] as const;
const WIDTH = 640;
const HEIGHT = 360;

/**
 * How many tiles the recording shows at `atSeconds` (or at its last frame before then):
 * groups of adjacent columns with more than `minRun` accent pixels in a row. The frames are resampled
 * at 4 per second first: a still page gives MediaRecorder few frames, so there may be none at exactly
 * that time, and the video may hold its last frame before then (a page that stopped changing), in
 * which case that frame is the picture at `atSeconds`.
 */
const tilesInFrame = async (recording: string, atSeconds: number, minRun = 40): Promise<number> => {
  const frames = Math.floor(atSeconds * 4) + 1;
  const frameBytes = WIDTH * HEIGHT * 3;
  const { stdout } = await run(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-i', recording, '-vf', `fps=4,scale=${WIDTH}:${HEIGHT}`, '-frames:v', String(frames), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: frameBytes * (frames + 1) },
  );
  const all = stdout as unknown as Buffer;
  assert.ok(all.length >= frameBytes && all.length % frameBytes === 0 && all.length <= frameBytes * frames, `whole frames, at least one: ${all.length / frameBytes}`);
  const frame = all.subarray(all.length - frameBytes);
  const accent = (x: number, y: number) => {
    const i = (y * WIDTH + x) * 3;
    return ACCENT.every((c, k) => Math.abs(frame[i + k]! - c) < 40);
  };
  let tiles = 0;
  let inTile = false;
  for (let x = 0; x < WIDTH; x++) {
    let run = 0;
    let longest = 0;
    for (let y = 0; y < HEIGHT; y++) {
      run = accent(x, y) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    const tall = longest > minRun;
    if (tall && !inTile) tiles++;
    inTile = tall;
  }
  return tiles;
};

describe('speaker_view and gallery_view: the bot picks the layout and the recordings differ (sandbox, Chromium)', function () {
  this.timeout(120_000);
  let sb: RunningSandbox;
  const running: StartedBot[] = [];

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await endBots(running);
    await sb?.stop();
  });

  it('speaker_view records the speaker\u2019s tile alone, gallery_view every participant\u2019s tile', async () => {
    const m = await sb.client.createMeeting({ platform: 'tm', lobby: false });
    const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
    await sb.client.addSimulated(m.meeting_id, 'Bob');
    const start = (mode: RecordingMode, name: string) => {
      const bot = startBot(m.url, 'tm', { recording_mode: mode, bot_name: name });
      running.push(bot);
      return bot;
    };
    const [speaker, gallery] = [start('speaker_view', 'Speaker Bot'), start('gallery_view', 'Gallery Bot')];
    await Promise.all([speaker.reporter.waitForStatus('in_call_recording'), gallery.reporter.waitForStatus('in_call_recording')]);
    const layouts = (await sb.client.getMeeting(m.meeting_id)).participants.filter((p) => p.kind === 'browser').map((p) => [p.name, p.layout]);
    assert.deepEqual(layouts.sort(), [
      ['Gallery Bot', 'gallery'],
      ['Speaker Bot', 'speaker'],
    ]);
    const spoken = await sb.client.speak(m.meeting_id, alice.participant_id, 'Here is the plan for the week.');
    await sleep(spoken.duration_seconds * 1000 + 1500);
    await Promise.all([speaker, gallery].map((b) => b.control.send({ kind: 'leave' })));
    const [speakerEnd, galleryEnd] = await Promise.all([speaker.done, gallery.done]);
    assert.equal(`${speakerEnd.outcome} ${speakerEnd.error_code}`, 'completed API_REQUEST');
    assert.equal(`${galleryEnd.outcome} ${galleryEnd.error_code}`, 'completed API_REQUEST');

    // a frame two seconds in: the layout was set before recording started
    const at = 2;
    assert.ok(speakerEnd.recorded_seconds > at + 1 && galleryEnd.recorded_seconds > at + 1, 'long enough recordings');
    assert.equal(await tilesInFrame(path.join(speaker.out, 'recording.mp4'), at), 1, 'speaker_view: one tile');
    assert.equal(await tilesInFrame(path.join(gallery.out, 'recording.mp4'), at), 4, 'gallery_view: Alice, Bob and both bots');
  });
});
