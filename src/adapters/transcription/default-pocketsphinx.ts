/**
 * The `Default` provider: Debian's PocketSphinx (`pocketsphinx_continuous` 5prealpha with the
 * `pocketsphinx-en-us` model), offline, where the service runs, no account. ffmpeg decodes the recording
 * (a recording's container, from a file or a URL) to raw 16 kHz mono S16LE, written into a named pipe the
 * decoder reads: the two run side by side, and no WAV is written. English only; no diarization (the speaker timeline gives speakers).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { guardedInput } from '../../../contract/media/ffmpeg-input';
import { languageProblem } from './options-problems';
import { parsePocketSphinxTimes } from './pocketsphinx-output';
import { TranscriptionFailed, type ProviderTranscript, type TranscriptionOptions, type TranscriptionProvider, type TranscriptionRequest } from './port';

/**
 * The demuxers of the recordings there are (MP3, MP4, the WebM or Matroska raw capture) and of the audio a
 * team may put in its place (WAV, Ogg, FLAC, AAC); `mov` is the MP4 demuxer, `matroska` the WebM one.
 */
const RECORDING_FORMATS = ['mp3', 'mov', 'matroska', 'wav', 'ogg', 'flac', 'aac'];

export interface PocketSphinxOptions {
  readonly ffmpegPath?: string;
  readonly pocketsphinxPath?: string;
}

const execFileAsync = promisify(execFile);
const SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = SAMPLE_RATE * 2;
/** the decoder's own arguments: word times; the model is the package's default (en-us) */
export const POCKETSPHINX_ARGS = ['-time', 'yes'] as const;

/** The end of what a process printed, for an error message. */
class Tail {
  private text = '';
  constructor(stream: Readable | null, private readonly keep = 2000) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => (this.text = (this.text + chunk).slice(-this.keep * 4)));
  }
  /** the last of what it printed, as printed */
  get last(): string {
    return this.text;
  }

  lines(pattern?: RegExp): string {
    const lines = this.text.split('\n').filter((l) => l.trim() !== '' && (!pattern || pattern.test(l)));
    return lines.join(' | ').slice(-this.keep);
  }
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** it could not start */
  readonly error: Error | null;
}

const exited = (child: ChildProcess): Promise<Exit> =>
  new Promise((resolveExit) => {
    child.once('error', (error) => resolveExit({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolveExit({ code, signal, error: null }));
  });

/** The decoder's own errors from its log file (its informational lines are left out). */
const errorLines = async (logFile: string): Promise<string> => {
  const log = await readFile(logFile, 'utf8').catch(() => '');
  return log
    .split('\n')
    .filter((l) => /^(ERROR|FATAL)/.test(l))
    .join(' | ')
    .slice(-2000);
};

/** It did not start, or it ended in error on its own (not killed). */
const failedAlone = (exit: Exit): boolean => exit.error !== null || (exit.signal === null && exit.code !== 0);

export class PocketSphinxProvider implements TranscriptionProvider {
  readonly name = 'Default' as const;
  private readonly ffmpegPath: string;
  private readonly pocketsphinxPath: string;

  constructor(options: PocketSphinxOptions = {}) {
    this.ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
    this.pocketsphinxPath = options.pocketsphinxPath ?? 'pocketsphinx_continuous';
  }

  problemWith(options: TranscriptionOptions): string | null {
    const malformed = languageProblem(options);
    if (malformed) return malformed;
    if (options.language && !/^en([-_][A-Za-z]{2})?$/i.test(options.language)) {
      return `language "${options.language}": the Default provider (PocketSphinx) transcribes English only`;
    }
    if (options.customParams && Object.keys(options.customParams).length > 0) return 'custom_params must be empty: the Default provider takes none';
    return null;
  }

  async transcribe(request: TranscriptionRequest): Promise<ProviderTranscript> {
    const problem = this.problemWith(request);
    if (problem) throw new TranscriptionFailed(this.name, problem);
    const input = this.inputOf(request);
    if (request.signal?.aborted) throw new TranscriptionFailed(this.name, 'stopped before it started');
    // a named pipe between the two: the decoder reads its -infile with fopen, which a Node stdio
    // socket refuses, and a FIFO writes no file to disk however long the recording
    const dir = await mkdtemp(join(tmpdir(), 'pocketsphinx-'));
    try {
      const fifo = join(dir, 'audio.s16le');
      await execFileAsync('mkfifo', ['-m', '600', fifo]);
      return await this.decode(input, fifo, join(dir, 'decoder.log'), request.signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async decode(input: string[], fifo: string, logFile: string, signal: AbortSignal | undefined): Promise<ProviderTranscript> {
    const ffmpeg = spawn(
      this.ffmpegPath,
      ['-nostdin', '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', ...input, '-vn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', '-y', fifo],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // its log (a few dozen lines per utterance) goes to a file, read only to say why it failed
    const decoder = spawn(this.pocketsphinxPath, ['-infile', fifo, ...POCKETSPHINX_ARGS, '-logfn', logFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    const ffmpegDone = exited(ffmpeg);
    const decoderDone = exited(decoder);
    const ffmpegErrors = new Tail(ffmpeg.stderr);
    const progress = new Tail(ffmpeg.stdout, 400);
    const decoderErrors = new Tail(decoder.stderr);
    let output = '';
    decoder.stdout!.setEncoding('utf8');
    decoder.stdout!.on('data', (chunk: string) => (output += chunk));

    // a FIFO opens only once both ends do: when one side fails, the other would wait for it forever
    void decoderDone.then((exit) => failedAlone(exit) && ffmpeg.kill('SIGKILL'));
    void ffmpegDone.then((exit) => failedAlone(exit) && decoder.kill('SIGKILL'));
    const stop = () => {
      ffmpeg.kill('SIGKILL');
      decoder.kill('SIGKILL');
    };
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
    try {
      const [decoded, converted] = await Promise.all([decoderDone, ffmpegDone]);
      if (signal?.aborted) throw new TranscriptionFailed(this.name, 'stopped while transcribing');
      if (decoded.error) throw new TranscriptionFailed(this.name, `${this.pocketsphinxPath} could not start (${decoded.error.message}); scripts/install-system-packages.sh installs it`);
      if (converted.error) throw new TranscriptionFailed(this.name, `${this.ffmpegPath} could not start (${converted.error.message})`);
      if (failedAlone(decoded)) throw new TranscriptionFailed(this.name, `PocketSphinx failed (exit ${decoded.code}): ${(await errorLines(logFile)) || decoderErrors.lines() || 'no message'}`);
      if (failedAlone(converted)) throw new TranscriptionFailed(this.name, `the recording could not be decoded (ffmpeg exit ${converted.code}): ${ffmpegErrors.lines() || 'no message'}`);
      if (decoded.code !== 0 || converted.code !== 0) throw new TranscriptionFailed(this.name, `killed (${decoded.signal ?? converted.signal})`);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    // ffmpeg's last progress report counts the bytes it wrote: 2 per sample
    const bytes = Number([...progress.last.matchAll(/total_size=(\d+)/g)].pop()?.[1] ?? 0);
    return {
      provider: this.name,
      jobIds: [],
      raw: { engine: 'pocketsphinx_continuous', arguments: POCKETSPHINX_ARGS, output },
      words: parsePocketSphinxTimes(output),
      language: 'en',
      duration: Math.round((bytes / BYTES_PER_SECOND) * 1000) / 1000,
    };
  }

  /**
   * ffmpeg's input arguments: a local file, else an HTTP(S) URL (with a stall limit: a URL may hang); either
   * way only the recordings' own containers, and no protocol but the one the input needs (guardedInput).
   */
  private inputOf(request: TranscriptionRequest): string[] {
    if (request.audio.path) return guardedInput(resolve(request.audio.path), { protocols: ['file'], formats: RECORDING_FORMATS });
    const url = request.audio.url;
    if (url && /^https?:\/\//i.test(url)) return ['-rw_timeout', '30000000', ...guardedInput(url, { protocols: ['http', 'https', 'tls', 'tcp'], formats: RECORDING_FORMATS })];
    throw new TranscriptionFailed(this.name, url ? 'the audio URL must be http or https' : 'needs the recording as a file or a URL');
  }
}
