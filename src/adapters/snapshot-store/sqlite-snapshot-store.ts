import Database from 'better-sqlite3';
import { openSqliteFile } from '../disk/sqlite-file';
import type { StreamName } from '../event-store/port';
import type { Snapshot, SnapshotStore } from './port';

interface SnapshotRow {
  readonly revision: bigint;
  readonly event_id: string;
  readonly version: number;
  readonly state: string;
}

/**
 * Snapshots in a SQLite file of this process (DATA_DIR/snapshots.sqlite3), whatever the event store: they
 * are a cache of the log, valid wherever that log is read, so nothing needs to share them. Not synced: a
 * snapshot lost to a power cut is folded again.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path: string) {
    this.db = openSqliteFile(path, 'NORMAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS snapshots (stream TEXT PRIMARY KEY, revision INTEGER NOT NULL, event_id TEXT NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL)');
    this.statements = {
      load: this.db.prepare('SELECT revision, event_id, version, state FROM snapshots WHERE stream = ?').safeIntegers(true),
      save: this.db.prepare(
        `INSERT INTO snapshots (stream, revision, event_id, version, state) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, event_id = excluded.event_id, version = excluded.version, state = excluded.state
         WHERE excluded.revision > revision OR excluded.version <> version`,
      ),
    };
  }

  async load(stream: StreamName): Promise<Snapshot | null> {
    const row = this.statements.load.get(stream) as SnapshotRow | undefined;
    if (row === undefined) return null;
    return { revision: row.revision, eventId: row.event_id, version: Number(row.version), state: JSON.parse(row.state) };
  }

  async save(stream: StreamName, snapshot: Snapshot): Promise<void> {
    this.statements.save.run(stream, snapshot.revision, snapshot.eventId, snapshot.version, JSON.stringify(snapshot.state));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
