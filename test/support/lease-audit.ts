import pg from 'pg';
import { PostgresCheckpointStore } from '../../src/adapters/checkpoint-store/postgres-checkpoint-store';

/**
 * Every write to the `leases` and `checkpoints` tables of a PostgreSQL database the service shares, as
 * the database made it: triggers (installed by the test, not the service) copy each new row into a history
 * table with the statement's own `now()`, the clock the leases' expiries are computed on. What the
 * service's processes do to those tables is thus seen completely, not sampled, and timed by the database.
 */
const AUDIT = `
  CREATE TABLE lease_history (seq bigserial PRIMARY KEY, name text NOT NULL, owner text, epoch bigint NOT NULL, expires_at timestamptz NOT NULL, at timestamptz NOT NULL);
  CREATE FUNCTION audit_lease() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO lease_history (name, owner, epoch, expires_at, at) VALUES (NEW.name, NEW.owner, NEW.epoch, NEW.expires_at, now());
      RETURN NEW;
    END $$;
  CREATE TRIGGER lease_audit AFTER INSERT OR UPDATE ON leases FOR EACH ROW EXECUTE FUNCTION audit_lease();
  CREATE TABLE checkpoint_history (seq bigserial PRIMARY KEY, name text NOT NULL, old_position bigint, new_position bigint NOT NULL, at timestamptz NOT NULL);
  CREATE FUNCTION audit_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO checkpoint_history (name, old_position, new_position, at)
        VALUES (NEW.name, CASE WHEN TG_OP = 'UPDATE' THEN OLD.position END, NEW.position, now());
      RETURN NEW;
    END $$;
  CREATE TRIGGER checkpoint_audit AFTER INSERT OR UPDATE ON checkpoints FOR EACH ROW EXECUTE FUNCTION audit_checkpoint();
`;

/** One write to a lease: an acquisition, a renewal, or a release (owner null). */
export interface LeaseWrite {
  readonly seq: number;
  readonly name: string;
  readonly owner: string | null;
  readonly epoch: number;
  readonly expiresAtMs: number;
  /** the database's now() of the statement */
  readonly atMs: number;
}

/** One holding of a lease: an epoch, its owner, and what the database recorded of it. */
export interface Holding {
  readonly name: string;
  readonly epoch: number;
  readonly owners: ReadonlySet<string>;
  /** when it was taken (the database's clock), and when it was last renewed */
  readonly takenAtMs: number;
  readonly lastRenewedAtMs: number;
  /** its last expiry: when a holder that stopped renewing lost it */
  readonly lastExpiresAtMs: number;
  /** given up on purpose (a release), and the sequence number of that write */
  readonly releasedAtSeq: number | null;
  readonly firstSeq: number;
}

export interface CheckpointWrite {
  readonly seq: number;
  readonly name: string;
  readonly oldPosition: bigint | null;
  readonly newPosition: bigint;
}

/** Creates the service's tables (through its own adapter, so they are what it makes) and the triggers on them. */
export const installLeaseAudit = async (databaseUrl: string): Promise<void> => {
  const store = await PostgresCheckpointStore.connect(databaseUrl);
  await store.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(AUDIT);
  } finally {
    await client.end();
  }
};

const query = async <R extends pg.QueryResultRow>(databaseUrl: string, sql: string): Promise<R[]> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
};

export const leaseWrites = async (databaseUrl: string): Promise<LeaseWrite[]> =>
  (
    await query<{ seq: string; name: string; owner: string | null; epoch: string; expires_at: Date; at: Date }>(
      databaseUrl,
      'SELECT seq, name, owner, epoch, expires_at, at FROM lease_history ORDER BY seq',
    )
  ).map((r) => ({ seq: Number(r.seq), name: r.name, owner: r.owner, epoch: Number(r.epoch), expiresAtMs: r.expires_at.getTime(), atMs: r.at.getTime() }));

export const checkpointWrites = async (databaseUrl: string): Promise<CheckpointWrite[]> =>
  (
    await query<{ seq: string; name: string; old_position: string | null; new_position: string }>(
      databaseUrl,
      'SELECT seq, name, old_position, new_position FROM checkpoint_history ORDER BY seq',
    )
  ).map((r) => ({ seq: Number(r.seq), name: r.name, oldPosition: r.old_position === null ? null : BigInt(r.old_position), newPosition: BigInt(r.new_position) }));

/** The holdings of each lease, in the order they were taken. */
export const holdingsOf = (writes: readonly LeaseWrite[]): Map<string, Holding[]> => {
  const byName = new Map<string, Map<number, { -readonly [K in keyof Holding]: Holding[K] } & { owners: Set<string> }>>();
  for (const w of writes) {
    const epochs = byName.get(w.name) ?? new Map();
    byName.set(w.name, epochs);
    let holding = epochs.get(w.epoch);
    if (holding === undefined) {
      holding = { name: w.name, epoch: w.epoch, owners: new Set(), takenAtMs: w.atMs, lastRenewedAtMs: w.atMs, lastExpiresAtMs: w.expiresAtMs, releasedAtSeq: null, firstSeq: w.seq };
      epochs.set(w.epoch, holding);
    }
    if (w.owner === null) {
      holding.releasedAtSeq = w.seq;
      holding.lastExpiresAtMs = w.expiresAtMs;
      continue;
    }
    holding.owners.add(w.owner);
    holding.lastRenewedAtMs = w.atMs;
    holding.lastExpiresAtMs = w.expiresAtMs;
  }
  return new Map([...byName].map(([name, epochs]) => [name, [...epochs.values()].sort((a, b) => a.firstSeq - b.firstSeq)]));
};
