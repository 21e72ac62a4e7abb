/**
 * The bot's helper processes (its virtual display and sound server) run as the bot user, like its
 * Chromium: a process running as root starts them through `setpriv`.
 */
import type { ChildProcess } from 'node:child_process';
import type { BotUser } from './bot-user';

const SETPRIV = '/usr/bin/setpriv';

/** The command line that runs `command args` as `runAs` (null: as this process's user). */
export const asBotUser = (command: string, args: readonly string[], runAs: BotUser | null): [string, string[]] =>
  runAs ? [SETPRIV, [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--', command, ...args]] : [command, [...args]];

/** Ends a helper: SIGTERM, SIGKILL after 3 s. */
export const stopHelper = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** The last lines a helper wrote on its standard error, for a failure's message. */
export const lastLines = (stderr: string): string => (stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' / ')}` : '');
