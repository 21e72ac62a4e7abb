/**
 * The unprivileged user bots run as (made by scripts/install-system-packages.sh): no home, no shell, no
 * groups, and no way into the service's DATA_DIR. Chromium never runs as root: its sandbox needs a
 * non-root user, and a renderer exploit must find nothing of the service's to read.
 */
import { execFileSync } from 'node:child_process';

export const DEFAULT_BOT_USER = 'meetbot';

export interface BotUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** `BOT_USER`, or the default. */
export const botUserName = (env: NodeJS.ProcessEnv): string => env.BOT_USER?.trim() || DEFAULT_BOT_USER;

/** A `passwd` line's user and primary group; null when the line is not one. Pure. */
export const parsePasswdLine = (line: string): BotUser | null => {
  const [name, , uid, gid] = line.trim().split(':');
  if (!name || uid === undefined || gid === undefined || !/^\d+$/.test(uid) || !/^\d+$/.test(gid)) return null;
  return { name, uid: Number(uid), gid: Number(gid) };
};

/** The user as the system knows it (`getent passwd`); null when there is no such user. */
export const lookUpUser = (name: string): BotUser | null => {
  if (!/^[a-z_][a-z0-9_-]*\$?$/i.test(name)) return null;
  try {
    return parsePasswdLine(execFileSync('getent', ['passwd', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return null;
  }
};
