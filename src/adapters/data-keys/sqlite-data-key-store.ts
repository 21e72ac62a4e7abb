import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { sealingKeyIdOf, type SecretBox } from '../crypto/secret-box';
import { privateSqliteFile } from '../disk/private-files';
import type { DataKeyLookup, DataKeyStore } from './port';

/** Keys kept opened in memory: the bots read most recently. */
const OPENED_KEYS_KEPT = 10_000;

interface Row {
  readonly sealed: string | null;
  readonly destroyed_at: string | null;
}

/**
 * The embedded data key store: one small SQLite file beside the event log. Keys are stored sealed with the
 * service's secret box (whose secret lives outside DATA_DIR), so a copy of the data folder alone opens
 * nothing; keys sealed under a previous service secret are sealed again under the current one when the
 * store opens (and when read), so retiring that secret after a restart loses nothing. A destroyed key's bytes are overwritten in the file
 * (secure_delete) and its write-ahead log is emptied at once.
 */
export class SqliteDataKeyStore implements DataKeyStore {
  private readonly db: Database.Database;
  private readonly statements;
  /** sealed text -> key: opening is the only cost worth saving; the row is read every time */
  private readonly opened = new Map<string, Buffer>();

  constructor(path: string, private readonly box: SecretBox) {
    privateSqliteFile(path);
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // A key must be on disk before anything sealed with it reaches the log.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS data_keys (owner TEXT PRIMARY KEY, sealed TEXT, destroyed_at TEXT)');
    this.statements = {
      read: this.db.prepare('SELECT sealed, destroyed_at FROM data_keys WHERE owner = ?'),
      make: this.db.prepare('INSERT INTO data_keys (owner, sealed) VALUES (?, ?) ON CONFLICT (owner) DO NOTHING'),
      reseal: this.db.prepare('UPDATE data_keys SET sealed = ? WHERE owner = ? AND sealed = ?'),
      sealedElsewhere: this.db.prepare("SELECT owner, sealed FROM data_keys WHERE sealed IS NOT NULL AND sealed NOT LIKE ? ESCAPE '\\'"),
      destroy: this.db.prepare(
        'INSERT INTO data_keys (owner, sealed, destroyed_at) VALUES (?, NULL, ?) ON CONFLICT (owner) DO UPDATE SET sealed = NULL, destroyed_at = COALESCE(destroyed_at, excluded.destroyed_at)',
      ),
    };
    this.resealUnderCurrentSecret();
  }

  /**
   * Seals again under the current service secret every key sealed under another one (a rotation), so that
   * retiring the previous secret later loses no key; a key no secret of the ring opens is left as it is.
   */
  private resealUnderCurrentSecret(): void {
    const current = `v2.${this.box.currentKeyId.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
    for (const { owner, sealed } of this.statements.sealedElsewhere.all(current) as { owner: string; sealed: string }[]) {
      try {
        this.open(owner, sealed);
      } catch {
        // sealed under a secret this service no longer has: it reads as having no key
      }
    }
  }

  async keyToSeal(owner: string): Promise<Buffer | null> {
    const known = await this.lookup(owner);
    if (known.state === 'live') return known.key;
    if (known.state === 'destroyed') return null;
    // Two processes asking at once both insert; the first one wins and both read it back.
    this.statements.make.run(owner, this.box.seal(randomBytes(32).toString('base64')).sealed);
    const found = await this.lookup(owner);
    return found.state === 'live' ? found.key : null;
  }

  async lookup(owner: string): Promise<DataKeyLookup> {
    const row = this.statements.read.get(owner) as Row | undefined;
    if (row === undefined) return { state: 'none' };
    if (row.sealed === null) return { state: 'destroyed', destroyedAt: row.destroyed_at ?? '' };
    try {
      return { state: 'live', key: this.open(owner, row.sealed) };
    } catch {
      // Sealed under a service secret that was retired: what it sealed cannot be opened any more.
      return { state: 'none' };
    }
  }

  async destroy(owner: string, at: string): Promise<void> {
    const sealed = (this.statements.read.get(owner) as Row | undefined)?.sealed;
    this.statements.destroy.run(owner, at);
    if (sealed) this.opened.delete(sealed);
    // The sealed key must not linger in the write-ahead log either.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private open(owner: string, sealed: string): Buffer {
    const known = this.opened.get(sealed);
    if (known) return known;
    const key = Buffer.from(this.box.open({ sealed }), 'base64');
    if (sealingKeyIdOf({ sealed }) !== this.box.currentKeyId) this.statements.reseal.run(this.box.seal(key.toString('base64')).sealed, owner, sealed);
    this.opened.set(sealed, key);
    // A Map iterates in insertion order: the first entry is the one opened longest ago.
    if (this.opened.size > OPENED_KEYS_KEPT) this.opened.delete(this.opened.keys().next().value!);
    return key;
  }
}
