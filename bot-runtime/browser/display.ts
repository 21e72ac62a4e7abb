/**
 * A virtual X display of the bot's own (Debian's Xvfb), for a headful Chromium: what every peer runs
 * (docs/decisions.md, "Issue 22: the browser a page sees").
 *
 * One display per bot, not one shared by all: nothing of one bot's screen, input focus or clipboard is
 * another's, a window never covers another bot's, and a display dies with its bot. Xvfb picks a free
 * display number itself (`-displayfd`: no number chosen here, so two bots starting at once cannot
 * collide), never listens on TCP, and admits only clients that show its cookie (`-auth`): the X server
 * socket is reachable by every local process (the abstract socket ignores file permissions), the
 * cookie file is private to the bot user. Xvfb runs as the bot user, like Chromium: started by root
 * (tests, `npm run bot` as root), through `setpriv`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotUser } from '../../contract/host/bot-user';
import { asBotUser, lastLines, stopHelper } from './helper-process';

export const XVFB_PATH = '/usr/bin/Xvfb';
const STARTUP_LIMIT_MS = 10_000;

export interface ScreenSize {
  readonly width: number;
  readonly height: number;
}

export interface VirtualDisplay {
  /** `:N` */
  readonly display: string;
  /** what Chromium's environment needs to reach it */
  readonly environment: { readonly DISPLAY: string; readonly XAUTHORITY: string };
  readonly screen: ScreenSize;
  close(): Promise<void>;
}

/**
 * An Xauthority file with one MIT-MAGIC-COOKIE-1 entry for any address and display number (FamilyWild,
 * empty number): the layout libXau reads, and Xvfb's `-auth` too.
 */
export const xauthorityEntry = (cookie: Buffer): Buffer => {
  const field = (b: Buffer) => {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return Buffer.concat([len, b]);
  };
  const family = Buffer.alloc(2);
  family.writeUInt16BE(0xffff);
  return Buffer.concat([family, field(Buffer.alloc(0)), field(Buffer.alloc(0)), field(Buffer.from('MIT-MAGIC-COOKIE-1')), field(cookie)]);
};

export const xvfbArgs = (screen: ScreenSize, authFile: string): string[] => [
  '-displayfd',
  '3',
  '-screen',
  '0',
  `${screen.width}x${screen.height}x24`,
  '-auth',
  authFile,
  '-nolisten',
  'tcp',
  // a person's screen: 96 dpi, no server-side resets between clients
  '-dpi',
  '96',
  '-noreset',
];

export interface DisplayOptions {
  readonly screen: ScreenSize;
  /** a private folder for the cookie file (the bot's Chromium profile folder) */
  readonly dir: string;
  /** the user Xvfb runs as when this process is root; null: this process's user */
  readonly runAs: BotUser | null;
  readonly xvfbPath?: string;
}


export const startVirtualDisplay = async (opts: DisplayOptions): Promise<VirtualDisplay> => {
  const authFile = path.join(opts.dir, '.Xauthority');
  await fs.promises.writeFile(authFile, xauthorityEntry(randomBytes(16)), { mode: 0o600 });
  if (opts.runAs) await fs.promises.chown(authFile, opts.runAs.uid, opts.runAs.gid);
  const xvfb = opts.xvfbPath ?? XVFB_PATH;
  const args = xvfbArgs(opts.screen, authFile);
  const [command, argv] = asBotUser(xvfb, args, opts.runAs);
  const child = spawn(command, argv, {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH || '/usr/bin:/bin' },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const number = await new Promise<number>((resolve, reject) => {
    let out = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      void stopHelper(child);
      reject(new Error(`the virtual display (Xvfb) did not start: ${why}${lastLines(stderr)}`));
    };
    const timer = setTimeout(() => fail(`no display after ${STARTUP_LIMIT_MS} ms`), STARTUP_LIMIT_MS);
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code})`));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      resolve(Number(m[1]));
    });
  });
  child.on('error', () => undefined);
  const display = `:${number}`;
  return {
    display,
    environment: { DISPLAY: display, XAUTHORITY: authFile },
    screen: opts.screen,
    close: () => stopHelper(child),
  };
};
