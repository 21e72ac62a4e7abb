/**
 * A sound server of the bot's own (Debian's PulseAudio), so that its Chromium has the audio devices a
 * person's computer has: speakers and a microphone, listed by `enumerateDevices` with their own labels,
 * ids and group ids, where a server with no sound card shows none (docs/decisions.md, "Issue 22: the
 * browser a page sees"). Both are null devices: what plays is dropped (the recorder captures the tab,
 * not the speakers), the microphone is silent. What the speakers play can be listened to from outside
 * the page (`speakers()`): whether the meeting sounds, however the page plays it (media elements, Web
 * Audio, WebAssembly), with nothing of the bot's in the page.
 *
 * One per bot, like the display (display.ts), for the same reasons; it runs as the bot user, listens only
 * on a socket in the bot's private folder (no TCP, no D-Bus, no shared memory with other clients), and
 * dies with its bot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotUser } from '../../contract/host/bot-user';
import { asBotUser, lastLines, stopHelper } from './helper-process';

export const PULSEAUDIO_PATH = '/usr/bin/pulseaudio';
const PAREC_PATH = '/usr/bin/parec';
const STARTUP_LIMIT_MS = 10_000;

/** What a common laptop's built-in sound card is called on a Linux desktop. */
export const SPEAKERS_LABEL = 'Built-in Audio Analog Stereo';
export const MICROPHONE_LABEL = 'Built-in Audio Analog Stereo';

/** Peak above which what plays counts as sound (Vexa's gate, research note 1.1). */
export const SOUND_PEAK = 0.005;

export interface Speakers {
  /** milliseconds since the speakers last played sound; null when they never did */
  msSinceSound(): number | null;
}

export interface AudioServer {
  readonly environment: { readonly PULSE_SERVER: string };
  /** what the speakers play, listened to from now on (one listener, started at the first call) */
  speakers(): Speakers;
  close(): Promise<void>;
}

/** `parec`'s arguments: the speakers' monitor, 8 kHz mono 16-bit, in 50 ms pieces. */
export const listenerArgs = (): string[] => ['-d', 'speakers.monitor', '--raw', '--format=s16le', '--rate=8000', '--channels=1', '--latency-msec=50'];

/** The loudest sample of raw S16LE audio, as a fraction of full scale. */
export const peakOf = (pcm: Buffer): number => {
  let peak = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
  return peak / 0x8000;
};

/** A module argument's value with spaces is double-quoted; a property list's value inside it single-quoted. */
const quoted = (value: string) => `"${value.replace(/["'\\]/g, '')}"`;
const description = (value: string) => `"device.description='${value.replace(/["'\\]/g, '')}'"`;

export const pulseAudioArgs = (socket: string): string[] => [
  // no default configuration (no auto-loaded modules, no D-Bus, no network), nothing but these modules
  '-n',
  '--daemonize=no',
  '--system=no',
  '--use-pid-file=no',
  '--exit-idle-time=-1',
  '--disable-shm=yes',
  '--log-target=stderr',
  '--log-level=error',
  `--load=module-native-protocol-unix socket=${socket} auth-anonymous=1`,
  `--load=module-null-sink sink_name=speakers sink_properties=${description(SPEAKERS_LABEL)}`,
  `--load=module-null-source source_name=microphone description=${quoted(MICROPHONE_LABEL)}`,
];

export interface AudioServerOptions {
  /** the bot's private folder (its Chromium profile folder): the socket and PulseAudio's own files */
  readonly dir: string;
  readonly runAs: BotUser | null;
  readonly pulseAudioPath?: string;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const startAudioServer = async (opts: AudioServerOptions): Promise<AudioServer> => {
  const home = path.join(opts.dir, 'sound');
  await fs.promises.mkdir(home, { mode: 0o700 });
  if (opts.runAs) await fs.promises.chown(home, opts.runAs.uid, opts.runAs.gid);
  const socket = path.join(home, 'native');
  const pulse = opts.pulseAudioPath ?? PULSEAUDIO_PATH;
  const args = pulseAudioArgs(socket);
  const [command, argv] = asBotUser(pulse, args, opts.runAs);
  const child = spawn(command, argv, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH || '/usr/bin:/bin', HOME: home, XDG_RUNTIME_DIR: home, XDG_CONFIG_HOME: home },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exited (${signal ?? code})`));
  child.once('error', (err) => (exited = err.message));
  // ready once its socket exists: PulseAudio has no readiness notice without D-Bus or systemd
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  while (!fs.existsSync(socket)) {
    if (exited || Date.now() > deadline) {
      await stopHelper(child);
      const why = exited ?? `no socket after ${STARTUP_LIMIT_MS} ms`;
      throw new Error(`the sound server (PulseAudio) did not start: ${why}${lastLines(stderr)}`);
    }
    await sleep(20);
  }
  child.on('error', () => undefined);
  const environment = { PULSE_SERVER: `unix:${socket}` };
  let listener: ChildProcess | null = null;
  let lastSoundAt: number | null = null;
  const speakers: Speakers = { msSinceSound: () => (lastSoundAt === null ? null : Date.now() - lastSoundAt) };
  return {
    environment,
    speakers: () => {
      if (listener) return speakers;
      const [cmd, argv] = asBotUser(PAREC_PATH, listenerArgs(), opts.runAs);
      listener = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH || '/usr/bin:/bin', HOME: home, ...environment } });
      listener.on('error', () => undefined);
      let odd: Buffer = Buffer.alloc(0);
      listener.stdout!.on('data', (d: Buffer) => {
        const pcm = odd.length ? Buffer.concat([odd, d]) : d;
        odd = pcm.length % 2 ? pcm.subarray(pcm.length - 1) : Buffer.alloc(0);
        if (peakOf(pcm) > SOUND_PEAK) lastSoundAt = Date.now();
      });
      return speakers;
    },
    close: async () => {
      if (listener) await stopHelper(listener);
      await stopHelper(child);
    },
  };
};
