import Database from 'better-sqlite3';
import { openSqliteFile } from '../disk/sqlite-file';
import { sealedUnderPattern, type KeyRecord, type KeyRecords } from './key-records';

interface Row {
  readonly sealed: string | null;
  readonly destroyed_at: string | null;
}

/**
 * The embedded key vault's records: one small SQLite file beside the event log (`DATA_DIR/key-vault.sqlite3`).
 * A destroyed key's bytes are overwritten in the file (secure_delete) and its write-ahead log is emptied at
 * once, so that neither keeps the sealed key.
 */
export class SqliteKeyRecords implements KeyRecords {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path: string) {
    // A key must be on disk before anything sealed with it reaches the log.
    this.db = openSqliteFile(path, 'FULL');
    this.db.pragma('secure_delete = ON');
    this.db.exec('CREATE TABLE IF NOT EXISTS key_vault (owner TEXT PRIMARY KEY, sealed TEXT, destroyed_at TEXT)');
    this.statements = {
      read: this.db.prepare('SELECT sealed, destroyed_at FROM key_vault WHERE owner = ?'),
      insert: this.db.prepare('INSERT INTO key_vault (owner, sealed) VALUES (?, ?) ON CONFLICT (owner) DO NOTHING'),
      reseal: this.db.prepare('UPDATE key_vault SET sealed = ? WHERE owner = ? AND sealed = ?'),
      sealedElsewhere: this.db.prepare("SELECT owner, sealed FROM key_vault WHERE sealed IS NOT NULL AND sealed NOT LIKE ? ESCAPE '\\'"),
      // A key is destroyed when its sealed value is gone; the first destruction's time stays.
      destroy: this.db.prepare(
        `INSERT INTO key_vault (owner, sealed, destroyed_at) VALUES (?, NULL, ?)
         ON CONFLICT (owner) DO UPDATE SET sealed = NULL, destroyed_at = CASE WHEN key_vault.sealed IS NULL THEN key_vault.destroyed_at ELSE excluded.destroyed_at END`,
      ),
    };
  }

  async read(owner: string): Promise<KeyRecord | undefined> {
    const row = this.statements.read.get(owner) as Row | undefined;
    if (row === undefined) return undefined;
    return row.sealed === null ? { sealed: null, destroyedAt: row.destroyed_at } : { sealed: row.sealed, destroyedAt: null };
  }

  async insert(owner: string, sealed: string): Promise<void> {
    this.statements.insert.run(owner, sealed);
  }

  async reseal(owner: string, was: string, now: string): Promise<void> {
    this.statements.reseal.run(now, owner, was);
  }

  async destroy(owner: string, at: string | null): Promise<void> {
    this.statements.destroy.run(owner, at);
    // The sealed key must not linger in the write-ahead log either.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async sealedUnderOtherKeys(keyId: string): Promise<readonly { owner: string; sealed: string }[]> {
    return this.statements.sealedElsewhere.all(sealedUnderPattern(keyId)) as { owner: string; sealed: string }[];
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
