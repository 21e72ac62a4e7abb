/**
 * Speech for simulated participants: WAV files made with `espeak-ng -w` or `flite -o`, cached by
 * (engine, voice, text) on disk and in memory. Both engines are deterministic, so the cache can be shared
 * between runs. flite is there for tests that check words: PocketSphinx understands it far better.
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

export const ttsEngines = ['espeak-ng', 'flite'] as const;
export type TtsEngine = (typeof ttsEngines)[number];
/** the voices Debian's flite has built in (`flite -lv`, less `awb_time`, which only tells the time) */
export const fliteVoices = ['kal', 'kal16', 'awb', 'rms', 'slt'] as const;
/** espeak-ng's `en`, the sandbox's voice from the start; flite's `rms`, the one PocketSphinx understands best */
export const defaultVoice = (engine: TtsEngine): string => (engine === 'flite' ? 'rms' : 'en');
export const isTtsEngine = (value: unknown): value is TtsEngine => ttsEngines.includes(value as TtsEngine);

/** How a simulated participant speaks. */
export interface SpeakingVoice {
  readonly tts: TtsEngine;
  readonly voice: string;
}

export class SpeechSynthesizer {
  private readonly cache = new Map<string, Promise<Speech>>();

  constructor(readonly dir: string = defaultSpeechDir()) {}

  static validVoice(voice: string, engine: TtsEngine = 'espeak-ng'): boolean {
    return engine === 'flite' ? (fliteVoices as readonly string[]).includes(voice) : voicePattern.test(voice);
  }

  synthesize(text: string, voice = 'en', engine: TtsEngine = 'espeak-ng'): Promise<Speech> {
    if (!SpeechSynthesizer.validVoice(voice, engine)) return Promise.reject(new Error(`invalid ${engine} voice ${voice}`));
    // espeak-ng keeps its original key, so caches made before flite stay valid
    const key = engine === 'espeak-ng' ? `${voice}\u0000${text}` : `${engine}\u0000${voice}\u0000${text}`;
    const id = createHash('sha256').update(key).digest('hex').slice(0, 32) + '.wav';
    let speech = this.cache.get(id);
    if (!speech) {
      speech = this.make(id, text, voice, engine);
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

  private async make(id: string, text: string, voice: string, engine: TtsEngine): Promise<Speech> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, id);
    const exists = await stat(path).then((s) => s.size > 44, () => false);
    if (!exists) {
      const tmp = join(this.dir, `${randomUUID()}.tmp.wav`);
      await new Promise<void>((resolve, reject) => {
        const done = (err: Error | null) => (err ? reject(err) : resolve());
        if (engine === 'flite') {
          // -t takes the next argument as the text whatever it starts with; no shell is involved
          execFile('flite', ['-voice', voice, '-t', text, '-o', tmp], done);
        } else {
          const child = execFile('espeak-ng', ['-v', voice, '-w', tmp, '--stdin'], done);
          child.stdin?.end(text);
        }
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
