import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';

/** A temporary folder of SQLite files, removed with everything in it. */
export const sqliteFiles = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-files-'));
  const opened: SqliteEventStore[] = [];
  return {
    newFile: (): string => path.join(dir, `${randomUUID()}.sqlite3`),
    /** A new connection to `file` (a new file when omitted), closed by `cleanup`. */
    open: (file: string): SqliteEventStore => {
      const store = new SqliteEventStore(file);
      opened.push(store);
      return store;
    },
    cleanup: async (): Promise<void> => {
      await Promise.all(opened.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
