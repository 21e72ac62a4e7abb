import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Loudness and length of a recording, measured by ffmpeg. */
export const measureRecording = async (file: string) => {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-i', file, '-af', 'volumedetect', '-f', 'null', '-']);
  const max = Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? -91);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return { maxVolumeDb: max, durationSeconds: Number(stdout.trim()) };
};

/** Downloads an artifact through its signed link into a temporary file, and measures it. */
export const downloadAndMeasure = async (artifact: { readonly key: string; readonly url: string }) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mbs-rec-')), path.basename(artifact.key));
  writeFileSync(file, Buffer.from(await (await fetch(artifact.url)).arrayBuffer()));
  return measureRecording(file);
};
