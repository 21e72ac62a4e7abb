import type pg from 'pg';
import { openPoolWithSchema } from '../postgres/pool';
import { sealedUnderPattern, type KeyRecord, type KeyRecords } from './key-records';

const SCHEMA = 'CREATE TABLE IF NOT EXISTS key_vault (owner text PRIMARY KEY, sealed text, destroyed_at text)';

/**
 * The key vault's records in the event store's PostgreSQL database (DATABASE_URL), shared by every
 * instance. Each write is one statement, atomic under the row's lock. PostgreSQL never overwrites a row
 * in place: a destroyed key's earlier row version would stay in the table's pages until reused, so the
 * destruction of a live key rewrites the table (`VACUUM FULL`, issue 19's erasure) and its sealed bytes
 * leave the table's pages at once. Its write-ahead log and backups keep it until recycled
 * (docs/decisions.md: sealed under the service key, which a rotation retires).
 */
export class PostgresKeyRecords implements KeyRecords {
  private constructor(private readonly pool: pg.Pool) {}

  /** Connects and creates the table if needed: an unreachable server fails here. */
  static async connect(url: string): Promise<PostgresKeyRecords> {
    return new PostgresKeyRecords(await openPoolWithSchema(url, { purpose: 'key vault', maxConnections: 4 }, SCHEMA));
  }

  async read(owner: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<{ sealed: string | null; destroyed_at: string | null }>('SELECT sealed, destroyed_at FROM key_vault WHERE owner = $1', [owner]);
    const row = rows[0];
    if (row === undefined) return undefined;
    return row.sealed === null ? { sealed: null, destroyedAt: row.destroyed_at } : { sealed: row.sealed, destroyedAt: null };
  }

  async insert(owner: string, sealed: string): Promise<void> {
    await this.pool.query('INSERT INTO key_vault (owner, sealed) VALUES ($1, $2) ON CONFLICT (owner) DO NOTHING', [owner, sealed]);
  }

  async reseal(owner: string, was: string, now: string): Promise<void> {
    await this.pool.query('UPDATE key_vault SET sealed = $3 WHERE owner = $1 AND sealed = $2', [owner, was, now]);
  }

  async destroy(owner: string, at: string | null): Promise<void> {
    // A key is destroyed when its sealed value is gone. An owner already destroyed is left as it is (the first
    // destruction's time stays, and no row version is written); `xmax` is 0 for a row this statement inserted.
    const { rows } = await this.pool.query<{ inserted: boolean }>(
      `INSERT INTO key_vault AS k (owner, sealed, destroyed_at) VALUES ($1, NULL, $2)
       ON CONFLICT (owner) DO UPDATE SET sealed = NULL, destroyed_at = excluded.destroyed_at WHERE k.sealed IS NOT NULL
       RETURNING xmax = 0 AS inserted`,
      [owner, at],
    );
    // The row version that held the sealed key is dead but still on the table's pages: rewrite them without it.
    if (rows[0] && !rows[0].inserted) await this.pool.query('VACUUM FULL key_vault');
  }

  async sealedUnderOtherKeys(keyId: string): Promise<readonly { owner: string; sealed: string }[]> {
    const { rows } = await this.pool.query<{ owner: string; sealed: string }>(
      "SELECT owner, sealed FROM key_vault WHERE sealed IS NOT NULL AND sealed NOT LIKE $1 ESCAPE '\\'",
      [sealedUnderPattern(keyId)],
    );
    return rows;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
