import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The service's data is for its own user only: folders 0700, files 0600, whatever the umask says, and
 * what an earlier version left readable is closed up too. DATA_DIR is the one that matters most: a bot
 * (another user, README "Security") must read none of it, whatever modes the files inside have.
 * Returns the mode the folder had when it was open to others (to be logged); null otherwise.
 */
export const privateFolder = (folder: string): number | null => {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const mode = statSync(folder).mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  try {
    chmodSync(folder, 0o700);
  } catch (err) {
    throw new Error(`${folder} is open to other users (mode ${mode.toString(8)}) and cannot be closed: ${(err as Error).message}`);
  }
  return mode;
};

/**
 * Makes (or closes up) an SQLite database file before SQLite opens it: SQLite gives its journal and WAL
 * files the database file's own permissions, so they are private too.
 */
export const privateSqliteFile = (file: string): void => {
  if (file === ':memory:') return;
  closeSync(openSync(file, 'a', 0o600));
  for (const companion of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(companion)) chmodSync(companion, 0o600);
};
