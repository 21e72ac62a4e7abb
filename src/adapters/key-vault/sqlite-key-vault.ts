import { privateSqliteFile } from '../disk/private-files';
import Database from 'better-sqlite3';
import type { SecretBox } from '../crypto/secret-box';
import type { KeyVault } from './port';
import { newSealedKey, openStoredKey } from './sealed-keys';

/** The embedded key vault: one small SQLite file; a destroyed key's row keeps only its tombstone. */
export class SqliteKeyVault implements KeyVault {
  private readonly db: Database.Database;
  private readonly read;
  private readonly insert;
  private readonly tombstone;

  constructor(path: string, private readonly box: SecretBox) {
    privateSqliteFile(path);
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // A key must be on disk before anything sealed with it reaches the log.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS keys (id TEXT PRIMARY KEY, sealed TEXT)');
    this.read = this.db.prepare('SELECT sealed FROM keys WHERE id = ?');
    this.insert = this.db.prepare('INSERT INTO keys (id, sealed) VALUES (?, ?) ON CONFLICT (id) DO NOTHING');
    this.tombstone = this.db.prepare('INSERT INTO keys (id, sealed) VALUES (?, NULL) ON CONFLICT (id) DO UPDATE SET sealed = NULL');
  }

  async keyFor(keyId: string): Promise<Buffer | null> {
    // Two instances asking at once both insert; the first one wins and both read it back.
    this.insert.run(keyId, newSealedKey(this.box));
    const row = this.read.get(keyId) as { sealed: string | null };
    return openStoredKey(this.box, row);
  }

  async destroy(keyId: string): Promise<void> {
    this.tombstone.run(keyId);
    // The sealed key must not linger in the write-ahead log or in free pages either.
    // VACUUM rewrites the file through the log, so the log is written back and emptied after it too.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
