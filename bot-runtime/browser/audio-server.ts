/**
 * A sound server of the bot's own (Debian's PulseAudio), so that its Chromium has the audio devices a
 * person's computer has: speakers and a microphone, listed by `enumerateDevices` with their own labels,
 * ids and group ids, where a server with no sound card shows none (docs/decisions.md, "Issue 22: the
 * browser a page sees"). Both are null devices: what plays is dropped (the recorder captures the tab,
 * not the speakers), the microphone is silent.
 *
 * One per bot, like the display (display.ts), for the same reasons; it runs as the bot user, listens only
 * on a socket in the bot's private folder (no TCP, no D-Bus, no shared memory with other clients), and
 * dies with its bot.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotUser } from '../host/bot-user';
import { asBotUser, lastLines, stopHelper } from '../host/helper-process';

export const PULSEAUDIO_PATH = '/usr/bin/pulseaudio';
const STARTUP_LIMIT_MS = 10_000;

/** What a common laptop's built-in sound card is called on a Linux desktop. */
export const SPEAKERS_LABEL = 'Built-in Audio Analog Stereo';
export const MICROPHONE_LABEL = 'Built-in Audio Analog Stereo';

export interface AudioServer {
  readonly environment: { readonly PULSE_SERVER: string };
  close(): Promise<void>;
}

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
  return { environment: { PULSE_SERVER: `unix:${socket}` }, close: () => stopHelper(child) };
};
