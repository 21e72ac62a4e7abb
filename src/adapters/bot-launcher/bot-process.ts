/**
 * One bot process on this machine: the compiled runtime (compiled-runtime.ts) under plain `node`, as the bot
 * user (bot-identity.ts), in a private folder of its own (its home and temporary folder, removed when it
 * ends), with an environment by allow-list. Its launch (job, address, token) travels on its standard input,
 * never on the command line or in the environment, which other processes of the user (Chromium's among
 * them) could read; the pipe stays open, so that the bot sees the service die with it.
 *
 * A warm process (warm-pool.ts) is started before any job exists: it starts its Chromium and says `ready` on
 * its standard output, then waits for its launch; the end of its input before a launch makes it exit.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_MODE_VARIABLE, WARM_READY_LINE, WARM_VARIABLE, type BotLaunch } from '../../../contract/bot-contract';
import type { BotUser } from '../../../contract/host/bot-user';
import { botProcessEnvironment } from '../../../contract/host/environment';
import type { BotExit } from './port';

const STDERR_TAIL_BYTES = 4096;

export interface BotProcessSettings {
  /** the compiled runtime's main file (or the scripted stand-in's source, with `nodeArguments` to load it) */
  readonly main: string;
  readonly nodeArguments?: readonly string[];
  /** where it starts; its private folder unless given */
  readonly cwd?: string;
  /** whom it runs as; null: the service's own user (BOT_SAME_USER, development) */
  readonly owner: BotUser | null;
  /** passed to the bot as SANDBOX_REPLICAS (development and tests) */
  readonly sandboxReplicas?: string | undefined;
}

export interface BotProcess {
  readonly pid: number | undefined;
  /** settles once the process has exited and its private folder is gone */
  readonly exited: Promise<BotExit>;
  /** a warm process has started its browser (a cold one is ready at once) */
  readonly ready: Promise<void>;
  readonly isReady: boolean;
  readonly hasExited: boolean;
  /** hands the launch over; the input stays open */
  send(launch: BotLaunch): void;
  /** closes its input: a warm process that has no launch yet exits */
  endInput(): void;
  kill(signal: NodeJS.Signals): void;
}

export const startBotProcess = (settings: BotProcessSettings, warm: boolean): BotProcess => {
  const { owner } = settings;
  const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meetbot-'));
  if (owner) fs.chownSync(privateDir, owner.uid, owner.gid);
  const child = spawn(process.execPath, [...(settings.nodeArguments ?? []), settings.main], {
    cwd: settings.cwd ?? privateDir,
    env: {
      ...botProcessEnvironment(privateDir, process.env, {
        NODE_ENV: process.env.NODE_ENV,
        CHROMIUM_PATH: process.env.CHROMIUM_PATH,
        SANDBOX_REPLICAS: settings.sandboxReplicas,
      }),
      [SERVICE_MODE_VARIABLE]: '1',
      ...(warm ? { [WARM_VARIABLE]: '1' } : {}),
    },
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    stdio: ['pipe', warm ? 'pipe' : 'ignore', 'pipe'],
    // its own process group, so that whatever it started can be ended with it
    detached: true,
  });
  child.stdin!.on('error', () => undefined); // a bot that died before reading its launch: its exit tells
  let stderrTail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  let isReady = !warm;
  let hasExited = false;
  const ready = new Promise<void>((resolve) => {
    if (!warm) return resolve();
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes(`${WARM_READY_LINE}\n`)) {
        isReady = true;
        resolve();
      }
    });
  });
  const exited = new Promise<BotExit>((resolve) => {
    const done = (exit: BotExit) => {
      hasExited = true;
      fs.rm(privateDir, { recursive: true, force: true, maxRetries: 3 }, () => resolve(exit));
    };
    child.on('error', (err) => done({ code: null, signal: null, stderrTail: String(err) }));
    child.on('exit', (code, signal) => {
      // A bot that died abruptly may leave children behind: end the whole group.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
      done({ code, signal, stderrTail });
    });
  });
  return {
    pid: child.pid,
    exited,
    ready,
    get isReady() {
      return isReady;
    },
    get hasExited() {
      return hasExited;
    },
    send: (launch) => void child.stdin!.write(`${JSON.stringify(launch)}\n`),
    endInput: () => void child.stdin!.end(),
    kill: (signal) => void child.kill(signal),
  };
};
