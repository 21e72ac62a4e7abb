/**
 * The node side of the recorder without a browser: a stand-in page hands it chunks through the exposed
 * function, as the in-page recorder does, and the final conversion runs the real ffmpeg.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import type { PageWorld } from '../../bot-runtime/browser/bot-world';
import type { ArtifactReport, RecordingMode } from '../../contract/bot-contract';
import { conversionTimeoutMs, runFfmpeg } from '../../bot-runtime/recorder/ffmpeg';
import { Recorder } from '../../bot-runtime/recorder/recorder';
import { FolderUploader } from '../../bot-runtime/uploaders/folder-uploader';
import { MemoryReporter, tmpDir } from './support';

const exec = promisify(execFile);

/** A world of the page that answers the recorder's calls like the in-page recorder and lets the test send chunks. */
const standInWorld = (mainMime: string | null) => {
  let binding: ((stream: string, seq: number, b64: string) => Promise<void>) | null = null;
  const world: PageWorld = {
    expose: async (_name, fn) => {
      binding = fn as unknown as typeof binding;
    },
    addScript: async () => undefined,
    evaluate: async <T>(src: string) => {
      if (src.startsWith('window.__botRecorder.start(')) return { mainMime, audioMime: 'audio/webm;codecs=opus', startedAt: Date.now() } as T;
      if (src === 'window.__botRecorder.stop()') return { stoppedAt: Date.now() } as T;
      return undefined as T;
    },
  };
  return { world, send: (stream: string, seq: number, data: Buffer) => binding!(stream, seq, data.toString('base64')) };
};

const setUp = async (mode: RecordingMode, mainMime: string | null, ffmpegPath?: string) => {
  const root = tmpDir('bot-recorder-');
  const out = path.join(root, 'out');
  const reporter = new MemoryReporter();
  const log = new BotLog(null);
  const { world, send } = standInWorld(mainMime);
  const recorder = new Recorder({ mode, chunkSeconds: 1, workDir: path.join(root, 'work'), ffmpegPath }, new ArtifactStore(new FolderUploader(out), reporter, log), log);
  await recorder.install(world);
  await recorder.start();
  const recordings = () => reporter.reports.filter((r): r is ArtifactReport => r.kind === 'artifact' && r.artifact_type === 'recording');
  return { root, out, reporter, log, recorder, send, recordings };
};

const activeTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('bot-runtime recorder (node side)', function () {
  this.timeout(30_000);
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
  });

  it('converts a good capture to recording.mp3', async () => {
    const t = await setUp('audio_only', null);
    roots.push(t.root);
    const webm = path.join(t.root, 'tone.webm');
    await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libopus', webm]);
    await t.send('audio', 0, fs.readFileSync(webm));
    await t.recorder.stop();
    await t.recorder.finish();
    assert.deepEqual(t.recordings().map((r) => [r.key, r.content_type]), [['recording.mp3', 'audio/mpeg']]);
    assert.ok(fs.statSync(path.join(t.out, 'recording.mp3')).size > 0);
  });

  it('stores the raw capture as the recording when the conversion fails (corrupt input), and says why', async () => {
    const t = await setUp('audio_only', null);
    roots.push(t.root);
    const garbage = Buffer.from('this is not a media file '.repeat(200));
    await t.send('audio', 0, garbage.subarray(0, 2000));
    await t.send('audio', 1, garbage.subarray(2000));
    await t.recorder.stop();
    await t.recorder.finish();
    assert.deepEqual(
      t.recordings().map((r) => [r.artifact_type, r.key, r.content_type, r.size_bytes]),
      [['recording', 'recording.webm', 'audio/webm', garbage.length]],
    );
    assert.deepEqual(fs.readFileSync(path.join(t.out, 'recording.webm')), garbage, 'the raw bytes, in order');
    assert.ok(!fs.existsSync(path.join(t.out, 'recording.mp3')));
    assert.match(t.log.text(), /converting the recording to mp3 failed: ffmpeg exited with \d+: .*storing the raw capture as recording\.webm/s);
  });

  it('a capture the page made into a playlist in disguise makes ffmpeg read no other file: the raw bytes are kept instead', async () => {
    const t = await setUp('audio_only', null);
    roots.push(t.root);
    // a file of this machine that decodes as audio, and a "chunk" that is an HLS playlist pointing at it
    const elsewhere = path.join(t.root, 'elsewhere.mp3');
    await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', elsewhere]);
    const playlist = Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile://${elsewhere}\n#EXT-X-ENDLIST\n`);
    await t.send('audio', 0, playlist);
    await t.recorder.stop();
    await t.recorder.finish();
    assert.deepEqual(t.recordings().map((r) => [r.key, r.size_bytes]), [['recording.webm', playlist.length]], 'no recording.mp3 made of the other file');
    assert.match(t.log.text(), /converting the recording to mp3 failed: .*not on whitelist/s);
  });

  it('stores the raw video capture (.mkv for H.264 in Matroska, .webm otherwise) when ffmpeg cannot run', async () => {
    for (const [mime, key, type] of [
      ['video/x-matroska;codecs=avc1,opus', 'recording.mkv', 'video/x-matroska'],
      ['video/webm;codecs=vp8,opus', 'recording.webm', 'video/webm'],
    ] as const) {
      const t = await setUp('speaker_view', mime, '/nonexistent/ffmpeg');
      roots.push(t.root);
      await t.send('main', 0, Buffer.from('video bytes'));
      await t.send('audio', 0, Buffer.from('audio chunk'));
      await t.recorder.stop();
      await t.recorder.finish();
      assert.deepEqual(t.recordings().map((r) => [r.key, r.content_type]), [[key, type]], mime);
      assert.equal(fs.readFileSync(path.join(t.out, key), 'utf8'), 'video bytes');
      assert.ok(t.reporter.artifactKeys().includes('audio_chunks/000001.webm'));
    }
  });

  it('clears its stop timeout once the page has answered', async () => {
    const t = await setUp('audio_only', null);
    roots.push(t.root);
    const before = activeTimers();
    await t.recorder.stop(60_000);
    assert.equal(activeTimers(), before, 'no timer left behind by stop()');
  });

  it('kills an ffmpeg that runs past its time limit and fails', async () => {
    const dir = tmpDir('slow-ffmpeg-');
    roots.push(dir);
    const slow = path.join(dir, 'ffmpeg');
    const pidFile = path.join(dir, 'pid');
    fs.writeFileSync(slow, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 60\n`, { mode: 0o755 });
    await assert.rejects(runFfmpeg(['-i', 'x', 'y'], { ffmpegPath: slow, timeoutMs: 300 }), /did not finish within 300 ms and was killed/);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the process is gone');
    assert.equal(conversionTimeoutMs(30_000), 120_000, '60 s plus twice the recorded time');
  });
});
