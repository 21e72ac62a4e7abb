import Database from 'better-sqlite3';
import { openSqliteFile } from '../disk/sqlite-file';
import { type CheckpointStore, type Lease, LeaseLost } from './port';

/** Milliseconds since 1970 on the machine's clock, read by SQLite (not by the calling process). */
const NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

interface LeaseRow {
  readonly name: string;
  readonly owner: string | null;
  readonly epoch: number;
  readonly expires_at: number;
}

const toLease = (row: LeaseRow): Lease => ({ name: row.name, owner: row.owner!, epoch: row.epoch, expiresAt: new Date(row.expires_at) });

/**
 * Checkpoints and leases in a small SQLite file beside the data: the embedded default, and processes on
 * one host sharing the data folder (WAL, a busy timeout, and `BEGIN IMMEDIATE` so that each decision is
 * taken under the write lock). Positions are stored as decimal text: they are bigints and never pass
 * through a JS number. Times are the host's clock, read by SQLite.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly db: Database.Database;
  private readonly statements;
  private readonly saveTransaction;
  private readonly acquireTransaction;

  constructor(path: string) {
    // A checkpoint lost to a power cut only replays a few events (handlers are idempotent): no sync per save.
    this.db = openSqliteFile(path, 'NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, owner TEXT, epoch INTEGER NOT NULL, expires_at INTEGER NOT NULL);
    `);
    this.statements = {
      load: this.db.prepare('SELECT position FROM checkpoints WHERE name = ?'),
      save: this.db.prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position'),
      now: this.db.prepare(`SELECT ${NOW_MS} AS now`).pluck(),
      lease: this.db.prepare('SELECT * FROM leases WHERE name = ?'),
      liveLease: this.db.prepare(`SELECT * FROM leases WHERE name = ? AND owner IS NOT NULL AND expires_at > ${NOW_MS}`),
      heldLease: this.db.prepare(`SELECT * FROM leases WHERE name = ? AND owner = ? AND epoch = ? AND expires_at > ${NOW_MS}`),
      putLease: this.db.prepare(
        'INSERT INTO leases (name, owner, epoch, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch, expires_at = excluded.expires_at',
      ),
      renew: this.db.prepare(`UPDATE leases SET expires_at = ${NOW_MS} + ? WHERE name = ? AND owner = ? AND epoch = ? AND expires_at > ${NOW_MS} RETURNING *`),
      release: this.db.prepare(`UPDATE leases SET owner = NULL, expires_at = ${NOW_MS} WHERE name = ? AND owner = ? AND epoch = ?`),
    };
    this.saveTransaction = this.db.transaction((name: string, position: bigint, holder: Lease | undefined) => {
      if (holder && this.statements.heldLease.get(holder.name, holder.owner, holder.epoch) === undefined) throw new LeaseLost(holder);
      const saved = this.statements.load.get(name) as { position: string } | undefined;
      if (saved === undefined || BigInt(saved.position) < position) this.statements.save.run(name, position.toString());
    });
    this.acquireTransaction = this.db.transaction((name: string, owner: string, ttlMs: number): Lease | null => {
      const now = this.statements.now.get() as number;
      const current = this.statements.lease.get(name) as LeaseRow | undefined;
      const live = current !== undefined && current.owner !== null && current.expires_at > now;
      if (live && current.owner !== owner) return null;
      // Renewed by its holder at the same epoch; anything else is a new holding.
      const epoch = live ? current.epoch : (current?.epoch ?? 0) + 1;
      const row: LeaseRow = { name, owner, epoch, expires_at: now + ttlMs };
      this.statements.putLease.run(row.name, row.owner, row.epoch, row.expires_at);
      return toLease(row);
    });
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    const row = this.statements.load.get(name) as { position: string } | undefined;
    return row === undefined ? null : BigInt(row.position);
  }

  async saveCheckpoint(name: string, position: bigint, holder?: Lease): Promise<void> {
    this.saveTransaction.immediate(name, position, holder);
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | null> {
    return this.acquireTransaction.immediate(name, owner, Math.round(ttlMs));
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<Lease | null> {
    const row = this.statements.renew.get(Math.round(ttlMs), lease.name, lease.owner, lease.epoch) as LeaseRow | undefined;
    return row === undefined ? null : toLease(row);
  }

  async releaseLease(lease: Lease): Promise<void> {
    this.statements.release.run(lease.name, lease.owner, lease.epoch);
  }

  async readLease(name: string): Promise<Lease | null> {
    const row = this.statements.liveLease.get(name) as LeaseRow | undefined;
    return row === undefined ? null : toLease(row);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
