import type pg from 'pg';
import type { SecretBox } from '../crypto/secret-box';
import { openPoolWithSchema } from '../postgres/pool';
import type { KeyVault } from './port';
import { newSealedKey, openStoredKey } from './sealed-keys';

const SCHEMA = 'CREATE TABLE IF NOT EXISTS credential_keys (id text PRIMARY KEY, sealed text);';

/**
 * The key vault in the event store's PostgreSQL database (DATABASE_URL), for instances that share it and
 * no MongoDB: every instance must open the keys another one made, and a DELETE through any of them must
 * destroy the one key there is. A commit is durable before the key seals anything that reaches the log.
 */
export class PostgresKeyVault implements KeyVault {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly box: SecretBox,
  ) {}

  /** Connects and creates the table if needed: an unreachable server fails the start. */
  static async connect(url: string, box: SecretBox): Promise<PostgresKeyVault> {
    return new PostgresKeyVault(await openPoolWithSchema(url, { purpose: 'key vault', maxConnections: 2 }, SCHEMA), box);
  }

  async keyFor(keyId: string): Promise<Buffer | null> {
    // Two instances asking at once both insert; the first one wins and both read it back.
    await this.pool.query('INSERT INTO credential_keys (id, sealed) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [keyId, newSealedKey(this.box)]);
    const { rows } = await this.pool.query<{ sealed: string | null }>('SELECT sealed FROM credential_keys WHERE id = $1', [keyId]);
    return openStoredKey(this.box, rows[0]!);
  }

  async destroy(keyId: string): Promise<void> {
    await this.pool.query('INSERT INTO credential_keys (id, sealed) VALUES ($1, NULL) ON CONFLICT (id) DO UPDATE SET sealed = NULL', [keyId]);
    // The old row version keeps the sealed key in the table's pages until they are rewritten.
    await this.pool.query('VACUUM FULL credential_keys');
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
