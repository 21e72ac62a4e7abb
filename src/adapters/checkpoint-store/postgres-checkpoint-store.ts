import type pg from 'pg';
import { openPoolWithSchema } from '../postgres/pool';
import { type CheckpointStore, type Lease, LeaseLost } from './port';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS checkpoints (name text PRIMARY KEY, position bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS leases (name text PRIMARY KEY, owner text, epoch bigint NOT NULL, expires_at timestamptz NOT NULL);
`;

interface LeaseRow {
  readonly name: string;
  readonly owner: string;
  readonly epoch: string;
  readonly expires_at: Date;
}

const toLease = (row: LeaseRow): Lease => ({ name: row.name, owner: row.owner, epoch: Number(row.epoch), expiresAt: row.expires_at });

const LEASE_COLUMNS = 'name, owner, epoch, expires_at';

/**
 * Checkpoints and leases in the event store's PostgreSQL database (DATABASE_URL). Each decision is one
 * statement, with the server's `now()` as the clock: PostgreSQL's row locks make it atomic between
 * processes on any number of machines.
 */
export class PostgresCheckpointStore implements CheckpointStore {
  private constructor(private readonly pool: pg.Pool) {}

  /** Connects and creates the tables if needed: an unreachable server fails here. */
  static async connect(url: string): Promise<PostgresCheckpointStore> {
    return new PostgresCheckpointStore(await openPoolWithSchema(url, { purpose: 'checkpoint store', maxConnections: 4 }, SCHEMA));
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM checkpoints WHERE name = $1', [name]);
    return rows.length === 0 ? null : BigInt(rows[0]!.position);
  }

  async saveCheckpoint(name: string, position: bigint, holder?: Lease): Promise<void> {
    if (holder === undefined) {
      await this.pool.query(
        'INSERT INTO checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE checkpoints.position < excluded.position',
        [name, position.toString()],
      );
      return;
    }
    // FOR SHARE holds the lease row until this statement commits: a takeover (an UPDATE of that row) waits
    // for the save, or the save sees the takeover and finds no holder.
    const { rows } = await this.pool.query<{ held: boolean }>(
      `WITH holder AS (
         SELECT 1 FROM leases WHERE name = $3 AND owner = $4 AND epoch = $5 AND expires_at > now() FOR SHARE
       ), saved AS (
         INSERT INTO checkpoints (name, position) SELECT $1, $2 FROM holder
         ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE checkpoints.position < excluded.position
       )
       SELECT EXISTS (SELECT 1 FROM holder) AS held`,
      [name, position.toString(), holder.name, holder.owner, holder.epoch],
    );
    if (!rows[0]!.held) throw new LeaseLost(holder);
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | null> {
    // Renewed by its holder at the same epoch; anything else is a new holding. A contender waits for the
    // other's row lock, then sees its result: only one of two takes an expired lease.
    const { rows } = await this.pool.query<LeaseRow>(
      `INSERT INTO leases AS l (name, owner, epoch, expires_at) VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET
         owner = excluded.owner,
         epoch = CASE WHEN l.owner = excluded.owner AND l.expires_at > now() THEN l.epoch ELSE l.epoch + 1 END,
         expires_at = excluded.expires_at
       WHERE l.owner IS NULL OR l.owner = excluded.owner OR l.expires_at <= now()
       RETURNING ${LEASE_COLUMNS}`,
      [name, owner, Math.round(ttlMs)],
    );
    return rows.length === 0 ? null : toLease(rows[0]!);
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<Lease | null> {
    const { rows } = await this.pool.query<LeaseRow>(
      `UPDATE leases SET expires_at = now() + $4 * interval '1 millisecond'
       WHERE name = $1 AND owner = $2 AND epoch = $3 AND expires_at > now()
       RETURNING ${LEASE_COLUMNS}`,
      [lease.name, lease.owner, lease.epoch, Math.round(ttlMs)],
    );
    return rows.length === 0 ? null : toLease(rows[0]!);
  }

  async releaseLease(lease: Lease): Promise<void> {
    await this.pool.query('UPDATE leases SET owner = NULL, expires_at = now() WHERE name = $1 AND owner = $2 AND epoch = $3', [lease.name, lease.owner, lease.epoch]);
  }

  async readLease(name: string): Promise<Lease | null> {
    const { rows } = await this.pool.query<LeaseRow>(`SELECT ${LEASE_COLUMNS} FROM leases WHERE name = $1 AND owner IS NOT NULL AND expires_at > now()`, [name]);
    return rows.length === 0 ? null : toLease(rows[0]!);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
