/**
 * What is in a recording, measured with ffmpeg: its length and its stretches of sound.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const durationSeconds = async (file: string): Promise<number> => {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
};

export interface SoundSegment {
  readonly start: number;
  readonly end: number;
}

export interface SilenceSettings {
  /** below this level counts as silence (the captured tab is digital silence between phrases, speech peaks near -20 dBFS) */
  readonly noiseDb: number;
  /** a quiet stretch shorter than this is a pause inside a phrase, not a gap between two phrases */
  readonly minSilenceSeconds: number;
  /** sound shorter than this is a click, not speech */
  readonly minSoundSeconds: number;
}

/**
 * The stretches of sound between the silences ffmpeg's `silencedetect` reports. A file that ends in
 * silence has a `silence_start` without its `silence_end`; a file that starts with sound has sound
 * before the first `silence_start`.
 */
export const soundSegments = async (file: string, settings: SilenceSettings): Promise<SoundSegment[]> => {
  const filter = `silencedetect=noise=${settings.noiseDb}dB:d=${settings.minSilenceSeconds}`;
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', filter, '-f', 'null', '-'], { maxBuffer: 16 * 2 ** 20 });
  const length = await durationSeconds(file);
  const segments: SoundSegment[] = [];
  let soundFrom: number | null = 0;
  for (const match of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const at = Number(match[2]);
    if (match[1] === 'start') {
      if (soundFrom !== null && at - soundFrom >= settings.minSoundSeconds) segments.push({ start: soundFrom, end: at });
      soundFrom = null;
    } else soundFrom = at;
  }
  if (soundFrom !== null && length - soundFrom >= settings.minSoundSeconds) segments.push({ start: soundFrom, end: length });
  return segments;
};
