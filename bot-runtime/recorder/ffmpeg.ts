import { spawn } from 'node:child_process';
import { guardedInput } from '../../contract/media/ffmpeg-input';

export interface FfmpegRun {
  /** the ffmpeg binary (default: `ffmpeg` on the PATH) */
  readonly ffmpegPath?: string;
  /** kill ffmpeg (SIGKILL) and reject once it has run this long; default: no limit */
  readonly timeoutMs?: number;
}

/** What MediaRecorder writes: WebM, or Matroska (H.264); nothing else is ever read back. */
const WORK_FILE = { protocols: ['file'], formats: ['matroska', 'webm'] } as const;

/** How long converting a recording may take: 60 s plus twice the recorded time. */
export const conversionTimeoutMs = (recordedMs: number): number => 60_000 + 2 * Math.max(0, recordedMs);

/**
 * Runs ffmpeg with `args`; rejects with the tail of its stderr on a non-zero exit, or when it runs
 * longer than `timeoutMs` (it is then killed).
 */
export const runFfmpeg = (args: readonly string[], run: FfmpegRun = {}): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(run.ffmpegPath ?? 'ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let timedOut = false;
    const timer =
      run.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, run.timeoutMs)
        : null;
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (timedOut) reject(new Error(`ffmpeg did not finish within ${run.timeoutMs} ms and was killed`));
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });

/** The ffmpeg arguments that turn the concatenated MediaRecorder output into the final recording. */
export const finalRecordingArgs = (input: string, output: string, kind: 'mp4' | 'mp3', sourceMime: string): string[] => {
  const from = guardedInput(input, WORK_FILE);
  if (kind === 'mp3') return ['-y', ...from, '-vn', '-c:a', 'libmp3lame', '-b:a', '128k', output];
  const h264 = /avc1|h264/i.test(sourceMime);
  const video = h264 ? ['-c:v', 'copy'] : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p'];
  return ['-y', ...from, '-map', '0:v:0?', '-map', '0:a:0?', ...video, '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', output];
};
