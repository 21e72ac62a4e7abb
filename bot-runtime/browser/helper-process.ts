/**
 * The bot's helper processes (its virtual display and sound server) run as the bot user, like its
 * Chromium (a process running as root starts them as that user), and die with the process that started
 * them, however it ends: Chromium, on its pipe, dies with the bot; a helper gets SIGTERM from the kernel
 * when the bot's process is gone (`setpriv --pdeathsig`, kept across the change of user), so a killed bot
 * leaves no display or sound server behind.
 */
import type { ChildProcess } from 'node:child_process';
import type { BotUser } from '../../contract/host/bot-user';

const SETPRIV = '/usr/bin/setpriv';

/** The command line that runs `command args` as `runAs` (null: as this process's user), ended with this process. */
export const asBotUser = (command: string, args: readonly string[], runAs: BotUser | null): [string, string[]] => [
  SETPRIV,
  [...(runAs ? [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups'] : []), '--pdeathsig', 'SIGTERM', '--', command, ...args],
];

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
