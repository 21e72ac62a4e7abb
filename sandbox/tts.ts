/**
 * Speech for simulated participants: WAV files made with `espeak-ng -w`, cached by (voice, text) on
 * disk and in memory. espeak-ng output is deterministic, so the cache can be shared between runs.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Speech {
  /** file name in the cache directory: `<32 hex>.wav` */
  readonly id: string;
  readonly path: string;
  readonly duration_ms: number;
}

export const defaultSpeechDir = () => join(tmpdir(), 'meeting-sandbox-speech');
const voicePattern = /^[A-Za-z0-9_+\-]{1,40}$/;
export const MAX_SPEECH_TEXT = 2000;

export class SpeechSynthesizer {
  private readonly cache = new Map<string, Promise<Speech>>();

  constructor(readonly dir: string = defaultSpeechDir()) {}

  static validVoice(voice: string): boolean {
    return voicePattern.test(voice);
  }

  synthesize(text: string, voice = 'en'): Promise<Speech> {
    if (!SpeechSynthesizer.validVoice(voice)) return Promise.reject(new Error(`invalid voice ${voice}`));
    const id = createHash('sha256').update(`${voice}\u0000${text}`).digest('hex').slice(0, 32) + '.wav';
    let speech = this.cache.get(id);
    if (!speech) {
      speech = this.make(id, text, voice);
      this.cache.set(id, speech);
      speech.catch(() => this.cache.delete(id));
    }
    return speech;
  }

  /** The path of a WAV this synthesizer made, or null. */
  async pathOf(id: string): Promise<string | null> {
    const speech = this.cache.get(id);
    if (!speech) return null;
    try {
      return (await speech).path;
    } catch {
      return null;
    }
  }

  private async make(id: string, text: string, voice: string): Promise<Speech> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, id);
    const exists = await stat(path).then((s) => s.size > 44, () => false);
    if (!exists) {
      const tmp = join(this.dir, `${randomUUID()}.tmp.wav`);
      await new Promise<void>((resolve, reject) => {
        const child = execFile('espeak-ng', ['-v', voice, '-w', tmp, '--stdin'], (err) => (err ? reject(err) : resolve()));
        child.stdin?.end(text);
      });
      await rename(tmp, path);
    }
    return { id, path, duration_ms: wavDurationMs(await readFile(path)) };
  }
}

/** Duration of a PCM WAV file from its `fmt ` and `data` chunks. */
export function wavDurationMs(wav: Buffer): number {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let byteRate = 0;
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (!byteRate) throw new Error('WAV data before fmt');
      const dataBytes = Math.min(size, wav.length - offset - 8);
      return Math.round((dataBytes / byteRate) * 1000);
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV without data chunk');
}
