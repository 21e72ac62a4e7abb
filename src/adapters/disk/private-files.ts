import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The service's data is for its own user only: folders 0700, files 0600, whatever the umask says, and
 * files an earlier version left readable are closed up too.
 */
export const privateFolder = (folder: string): void => {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
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
