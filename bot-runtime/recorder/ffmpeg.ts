import { spawn } from 'node:child_process';

/** Runs ffmpeg with `args`; rejects with the tail of its stderr on a non-zero exit. */
export const runFfmpeg = (args: readonly string[], ffmpegPath = 'ffmpeg'): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`))));
  });

/** The ffmpeg arguments that turn the concatenated MediaRecorder output into the final recording. */
export const finalRecordingArgs = (input: string, output: string, kind: 'mp4' | 'mp3', sourceMime: string): string[] => {
  if (kind === 'mp3') return ['-y', '-i', input, '-vn', '-c:a', 'libmp3lame', '-b:a', '128k', output];
  const h264 = /avc1|h264/i.test(sourceMime);
  const video = h264 ? ['-c:v', 'copy'] : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p'];
  return ['-y', '-i', input, '-map', '0:v:0?', '-map', '0:a:0?', ...video, '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', output];
};
