/**
 * Node side of the recorder: installs the in-page script in the bot's world of the page (bot-world.ts),
 * receives its chunks, writes the recording to a work file, uploads audio chunks while recording and
 * turns the work file into the final MP4/MP3 at the end.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ArtifactStore } from '../artifacts';
import type { BotLog } from '../bot-log';
import type { PageWorld } from '../browser/bot-world';
import type { RecordingMode } from '../../contract/bot-contract';
import { conversionTimeoutMs, finalRecordingArgs, runFfmpeg } from './ffmpeg';
import { inPageRecorderSource, RECORDER_BINDING } from './in-page';

export interface RecorderOptions {
  readonly mode: RecordingMode;
  /** length of each uploaded audio chunk */
  readonly chunkSeconds: number;
  /** where the work file goes (a private temporary folder) */
  readonly workDir: string;
  /** the ffmpeg binary for the final conversion (default: `ffmpeg` on the PATH) */
  readonly ffmpegPath?: string;
  /** also feed the captured audio to the streaming tap (media/bot-media.ts) */
  readonly streamTap?: boolean;
}

/** `audio_chunks/000001.webm`: numbered from 1; only the first chunk carries the WebM header. */
export const audioChunkKey = (index: number) => `audio_chunks/${String(index).padStart(6, '0')}.webm`;

/**
 * The raw capture as an artifact (stored when the conversion fails): Matroska when Chromium recorded
 * H.264 into it, otherwise WebM (video, or the audio recorder's Opus in audio-only mode).
 */
export const rawRecordingArtifact = (video: boolean, mime: string): { readonly key: string; readonly contentType: string } => {
  if (/matroska/i.test(mime)) return { key: 'recording.mkv', contentType: 'video/x-matroska' };
  return { key: 'recording.webm', contentType: video ? 'video/webm' : 'audio/webm' };
};

export class Recorder {
  private readonly workFile: string;
  private writes: Promise<void> = Promise.resolve();
  private uploads: Promise<void> = Promise.resolve();
  private mainMime: string | null = null;
  private audioMime: string | null = null;
  private bytes = 0;
  private chunks = 0;
  private started = false;
  private stopped = false;
  private startedAt: number | null = null;
  private stoppedAt: number | null = null;
  private world: PageWorld | null = null;

  constructor(
    private readonly opts: RecorderOptions,
    private readonly artifacts: ArtifactStore,
    private readonly log: BotLog,
  ) {
    this.workFile = path.join(opts.workDir, 'recording.webm');
  }

  private get video(): boolean {
    return this.opts.mode !== 'audio_only';
  }

  /** Call before navigating: the function and the script then exist in every document of the page. */
  async install(world: PageWorld): Promise<void> {
    this.world = world;
    await world.expose(RECORDER_BINDING, (stream: string, seq: number, b64: string) => this.onChunk(stream, seq, b64));
    await world.addScript(inPageRecorderSource);
  }

  private inPage<T>(expression: string): Promise<T> {
    if (!this.world) return Promise.reject(new Error('the recorder is not installed in the page'));
    return this.world.evaluate<T>(expression);
  }

  private onChunk(stream: string, seq: number, b64: string): Promise<void> {
    const data = Buffer.from(b64, 'base64');
    const toMain = stream === 'main' || (stream === 'audio' && !this.video);
    if (toMain) {
      this.bytes += data.length;
      this.writes = this.writes.then(() => fs.promises.appendFile(this.workFile, data));
    }
    if (stream === 'audio') {
      const key = audioChunkKey(seq + 1);
      this.chunks++;
      this.uploads = this.uploads.then(async () => {
        await this.artifacts.store('audio_chunk', key, 'audio/webm', data);
      });
    }
    // The page waits for the local write (back-pressure), not for the upload.
    return this.writes;
  }

  /** Starts the tab capture and the recorders; resolves to the epoch ms at which they started recording. */
  async start(): Promise<number> {
    await fs.promises.mkdir(this.opts.workDir, { recursive: true });
    await fs.promises.rm(this.workFile, { force: true });
    await this.inPage(inPageRecorderSource);
    const result = await this.inPage<{ mainMime: string | null; audioMime: string; startedAt: number }>(
      `window.__botRecorder.start(${JSON.stringify({
        video: this.video,
        chunkMs: Math.round(this.opts.chunkSeconds * 1000),
        mainSliceMs: 1000,
        videoBitsPerSecond: 1_500_000,
        audioBitsPerSecond: 128_000,
        streamTap: this.opts.streamTap ?? false,
      })})`,
    );
    this.mainMime = result.mainMime;
    this.audioMime = result.audioMime;
    this.started = true;
    this.startedAt = result.startedAt;
    this.log.info(`recorder started: main ${this.mainMime ?? '(audio only)'}, audio chunks ${this.audioMime} every ${this.opts.chunkSeconds}s`);
    return result.startedAt;
  }

  /** Loudest level (dBFS) on the captured audio since the previous call; null when nothing was sampled. */
  async takeLevel(): Promise<number | null> {
    if (!this.started || this.stopped) return null;
    return this.inPage<number | null>('window.__botRecorder ? window.__botRecorder.takeLevel() : null');
  }

  async pause(): Promise<void> {
    await this.inPage('window.__botRecorder.pause()');
  }

  async resume(): Promise<void> {
    await this.inPage('window.__botRecorder.resume()');
  }

  /**
   * Stops the recorders and waits for the last chunk (bounded: a dead page must not hang the bot).
   * Resolves to the epoch ms at which recording stopped.
   */
  async stop(timeoutMs = 15_000): Promise<number> {
    const requestedAt = Date.now();
    if (!this.started || this.stopped) return requestedAt;
    this.stopped = true;
    let stoppedAt = requestedAt;
    let timer: NodeJS.Timeout | undefined;
    try {
      const r = (await Promise.race([
        this.inPage('window.__botRecorder.stop()'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
        }),
      ])) as { stoppedAt: number };
      stoppedAt = r.stoppedAt;
    } catch (err) {
      this.log.warn(`recorder stop: ${(err as Error).message}; keeping the chunks received so far`);
    } finally {
      clearTimeout(timer);
    }
    this.stoppedAt = stoppedAt;
    await this.writes.catch((err) => this.log.error(`writing the recording failed: ${(err as Error).message}`));
    this.log.info(`recorder stopped: ${this.bytes} bytes recorded, ${this.chunks} audio chunks`);
    return stoppedAt;
  }

  /**
   * Waits for the audio-chunk uploads, converts the work file and stores `recording.mp4` /
   * `recording.mp3`. When the conversion fails (or runs longer than 60 s plus twice the recorded time),
   * the raw capture is stored as the recording instead (`recording.webm`, or `.mkv` for H.264 in
   * Matroska), so that what was recorded is never lost with the work folder.
   */
  async finish(): Promise<void> {
    await this.uploads;
    if (!this.started || this.bytes === 0) return;
    const kind = this.video ? 'mp4' : 'mp3';
    const sourceMime = this.mainMime ?? this.audioMime ?? '';
    const out = path.join(this.opts.workDir, `recording.${kind}`);
    const t0 = Date.now();
    const recordedMs = this.startedAt !== null ? (this.stoppedAt ?? Date.now()) - this.startedAt : 0;
    try {
      await runFfmpeg(finalRecordingArgs(this.workFile, out, kind, sourceMime), { ffmpegPath: this.opts.ffmpegPath, timeoutMs: conversionTimeoutMs(recordedMs) });
    } catch (err) {
      const raw = rawRecordingArtifact(this.video, sourceMime);
      this.log.error(`converting the recording to ${kind} failed: ${(err as Error).message}; storing the raw capture as ${raw.key} instead`);
      await this.artifacts.store('recording', raw.key, raw.contentType, { file: this.workFile });
      return;
    }
    this.log.info(`recording converted to ${kind} in ${Date.now() - t0} ms`);
    await this.artifacts.store('recording', `recording.${kind}`, kind === 'mp4' ? 'video/mp4' : 'audio/mpeg', { file: out });
  }
}
