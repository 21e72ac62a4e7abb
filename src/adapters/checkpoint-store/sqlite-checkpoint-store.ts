import Database from 'better-sqlite3';
import { privateSqliteFile } from '../disk/private-files';
import type { CheckpointStore } from './port';

/**
 * Checkpoints in a small SQLite file beside the data (the embedded default, where the read models live in
 * memory). Positions are stored as decimal text: they are bigints and never pass through a JS number.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly db: Database.Database;
  private readonly load;
  private readonly save;

  constructor(path: string) {
    privateSqliteFile(path);
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // A checkpoint lost to a power cut only replays a few events (handlers are idempotent): no sync per save.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL)');
    this.load = this.db.prepare('SELECT position FROM checkpoints WHERE name = ?');
    this.save = this.db.prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position');
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    const row = this.load.get(name) as { position: string } | undefined;
    return row === undefined ? null : BigInt(row.position);
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    this.save.run(name, position.toString());
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
