import Database from 'better-sqlite3';
import { privateSqliteFile } from './private-files';

/**
 * Opens one of the service's SQLite files: readable by the service only, in WAL mode (readers, other
 * processes among them, run while one writer commits), waiting up to 5 s for another process's write lock.
 * `synchronous`: FULL where a commit must be on disk before anything depends on it, NORMAL where a commit
 * lost to a power cut is made again (or, for the event log, synced beside the event loop).
 */
export const openSqliteFile = (path: string, synchronous: 'NORMAL' | 'FULL'): Database.Database => {
  if (path !== ':memory:') privateSqliteFile(path);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  return db;
};
