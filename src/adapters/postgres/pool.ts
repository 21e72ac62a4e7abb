import pg from 'pg';
import { urlWithoutPassword } from '../url-without-password';

/**
 * Keys of the PostgreSQL advisory locks the service takes, as (class, object) pairs: the class says which
 * lock, the object is a hash of the database's name. Advisory locks belong to the whole server, so both
 * are specific to this project and to one database ('mbs' and a number).
 */
export const ADVISORY_LOCK = {
  /** held while a process creates or upgrades the tables, so that two starting at once do not collide */
  schema: 0x6d627301,
  /** held by every append until it commits: positions become visible in the order they were given */
  append: 0x6d627302,
} as const;

export interface PoolOptions {
  /** Who opens it: names the connections in pg_stat_activity and the server in error messages. */
  readonly purpose: string;
  readonly maxConnections?: number;
}

/**
 * A connection pool that has proved it reaches the server: a wrong or unreachable DATABASE_URL fails here,
 * at start, with the address in the message (never the password). Statements and lock waits are bounded,
 * so a stuck transaction elsewhere shows up as an error instead of a hang.
 */
export const openPool = async (url: string, { purpose, maxConnections = 10 }: PoolOptions): Promise<pg.Pool> => {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 60_000,
    lock_timeout: 15_000,
    idle_in_transaction_session_timeout: 60_000,
    application_name: `meeting-bot-service ${purpose}`,
  });
  // An idle connection that dies (a server restart) is replaced by the next query; the error is not ours to throw.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`cannot reach PostgreSQL at ${urlWithoutPassword(url, 'DATABASE_URL')} (DATABASE_URL) for the ${purpose}: ${(error as Error).message}`);
  }
  return pool;
};

/** Runs DDL in one transaction under the schema lock: idempotent statements, safe with processes starting together. */
export const createSchema = async (pool: pg.Pool, ddl: string): Promise<void> => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_database()))', [ADVISORY_LOCK.schema]);
    await client.query(ddl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
};

/** A pool whose tables exist: connected, then the schema created (closed again if that fails). */
export const openPoolWithSchema = async (url: string, options: PoolOptions, ddl: string): Promise<pg.Pool> => {
  const pool = await openPool(url, options);
  try {
    await createSchema(pool, ddl);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return pool;
};
