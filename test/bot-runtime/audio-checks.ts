/**
 * Checks that audio carries what was said: the loudness envelope of the received audio against the
 * source's (best normalised correlation over the possible delays), and words found by PocketSphinx
 * (Debian's `pocketsphinx`, when installed) in audio made with flite, which it understands.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { SandboxClient } from '../../sandbox/client';
import { readUntil } from '../support/read-until';

const run = promisify(execFile);

export const hasPocketsphinx = (): boolean => fs.existsSync('/usr/bin/pocketsphinx_continuous');

/** Any audio file sox reads -> 16 kHz mono WAV -> pocketsphinx's words (lower case). */
export const wordsInWav = async (wav: string, workDir: string): Promise<string[]> => {
  const mono16k = path.join(workDir, `${path.basename(wav)}.16k.wav`);
  await run('sox', [wav, '-r', '16000', '-c', '1', '-b', '16', mono16k]);
  const { stdout } = await run('pocketsphinx_continuous', ['-infile', mono16k, '-logfn', '/dev/null'], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.toLowerCase().split(/\s+/).filter((w) => /^[a-z']+$/.test(w));
};

/** Raw S16LE mono at `rate` -> WAV (for sox and pocketsphinx). */
export const rawToWav = async (pcm: Buffer, rate: number, file: string): Promise<string> => {
  const raw = `${file}.raw`;
  fs.writeFileSync(raw, pcm);
  await run('sox', ['-t', 'raw', '-r', String(rate), '-e', 'signed', '-b', '16', '-c', '1', raw, file]);
  return file;
};

/** Share of the reference's words (as a multiset) found in `heard`. */
export const wordRecall = (reference: readonly string[], heard: readonly string[]): number => {
  if (reference.length === 0) return 0;
  const left = [...heard];
  let found = 0;
  for (const w of reference) {
    const i = left.indexOf(w);
    if (i >= 0) {
      found++;
      left.splice(i, 1);
    }
  }
  return found / reference.length;
};

/** Any audio file -> S16LE 16 kHz mono samples. */
export const pcm16k = async (file: string): Promise<Int16Array> => {
  const { stdout } = await run('sox', [file, '-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', '-'], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
  });
  const buf = stdout as unknown as Buffer;
  return new Int16Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 2));
};

/** RMS per 20 ms window. */
export const envelope = (pcm: Int16Array, windowSamples = 320): number[] => {
  const out: number[] = [];
  for (let i = 0; i + windowSamples <= pcm.length; i += windowSamples) {
    let sum = 0;
    for (let j = i; j < i + windowSamples; j++) sum += (pcm[j]! / 32768) ** 2;
    out.push(Math.sqrt(sum / windowSamples));
  }
  return out;
};

const pearson = (a: readonly number[], b: readonly number[]): number => {
  const n = a.length;
  const ma = a.reduce((x, y) => x + y, 0) / n;
  const mb = b.reduce((x, y) => x + y, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
};

/** The best correlation of the source's envelope with a stretch of the received one, and where (in windows). */
export const bestEnvelopeMatch = (source: readonly number[], received: readonly number[]): { correlation: number; lag: number } => {
  let best = { correlation: -1, lag: -1 };
  for (let lag = 0; lag + source.length <= received.length; lag++) {
    const c = pearson(source, received.slice(lag, lag + source.length));
    if (c > best.correlation) best = { correlation: c, lag };
  }
  return best;
};

/** A WAV of `text` spoken by flite (voice rms, the one PocketSphinx understands best). */
export const fliteWav = async (text: string, file: string): Promise<string> => {
  await run('flite', ['-voice', 'rms', '-t', text, '-o', file]);
  return file;
};

export const hasFlite = (): boolean => fs.existsSync('/usr/bin/flite');

/** 20 ms windows louder than this hold speech (flite's speech is well above it, a silent microphone well below). */
const SPEECH_RMS = 0.02;

/**
 * Waits until what `listenerId` hears holds speech and then at least `quietSeconds` of quiet: the sentence
 * has been played out in the meeting, at the machine's pace (bounded), instead of after a fixed wait.
 * Returns whether it came; the checks after it say what was heard.
 */
export const speechPlayedOut = async (client: SandboxClient, meetingId: string, listenerId: string, { quietSeconds = 1, timeoutMs = 30_000 } = {}): Promise<boolean> => {
  const playedOut = async () => {
    const wav = await client.heardWav(meetingId, listenerId);
    const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)));
    const windows = envelope(pcm);
    const lastLoud = windows.reduce((last, rms, i) => (rms > SPEECH_RMS ? i : last), -1);
    return lastLoud >= 0 && (windows.length - 1 - lastLoud) * 0.02 >= quietSeconds;
  };
  return readUntil(playedOut, (done) => done, { timeoutMs, everyMs: 250 });
};
