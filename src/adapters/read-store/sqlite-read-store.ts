import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { openSqliteFile } from '../disk/sqlite-file';
import type { FieldValue, FindQuery, ReadDocument, ReadStore, SortKey, StoredDocument } from './port';
import { compileCount, compileFind, orderTerms, type SqlValue } from './sqlite-query';
import { PendingDocuments } from './pending-documents';

/** Positions as 20 zero-padded digits (every unsigned 64-bit number), so that text order is numeric order. */
const POSITION_DIGITS = 20;
const padPosition = (position: bigint): string => {
  if (position < 0n) throw new Error(`a position is never negative, got ${position}`);
  return position.toString().padStart(POSITION_DIGITS, '0');
};

const TABLE_PREFIX = 'rm_';
const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const tableOf = (collection: string): string => quoteIdentifier(`${TABLE_PREFIX}${collection}`);

/**
 * How long the transaction of the projections stays open: 50 ms of a burst of creations commit as one
 * (each commit writes every page it touched to the WAL: the same index and counter pages again and again),
 * and a crash loses no more than those, folded again at the next start. Measured: 10 ms gave 0.12 of bare
 * koa in `npm run bench`, 50 ms 0.134, 200 ms no more.
 */
const COMMIT_EVERY_MS = 50;

/** Pages of the database kept in memory (negative: KiB), the working set of the read models: 64 MiB. */
const CACHE_KIB = 64 * 1024;

/** Undefined fields are dropped, as the MongoDB implementation drops them. */
const toJson = (doc: ReadDocument): string => JSON.stringify(doc);

/**
 * The embedded read store: one SQLite file (DATA_DIR/read-models.sqlite3), one table per collection of
 * JSON documents, queried through expressions that order and match as MongoDB does (sqlite-query.ts). It
 * outlives a restart, so the service resumes from its checkpoint instead of folding the whole log again,
 * and memory holds SQLite's page cache (the working set), not every document.
 *
 * Commits are not synced (WAL, synchronous=NORMAL) and group the projections of up to COMMIT_EVERY_MS: a
 * crash may lose the last of them, a power cut the last few commits, never half of one. The read models
 * are derived from the log, and a projection's rows and its checkpoint commit together (`atomically`), so
 * whatever was lost is folded again from the checkpoint at the next start.
 */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly tables = new Set<string>();
  /** one `atomically` at a time: SQLite has one transaction per connection */
  private transactionTail: Promise<unknown> = Promise.resolve();
  /** an `atomically` is between its savepoint and its release */
  private working = false;
  /** the documents of the open transaction; null when none is open */
  private pending: PendingDocuments | null = null;

  constructor(path: string) {
    this.db = openSqliteFile(path, 'NORMAL');
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL) WITHOUT ROWID');
    this.loadTables();
  }

  /** The collections that have a table, as SQLite says (again after a rollback, which may drop a new one). */
  private loadTables(): void {
    this.tables.clear();
    const names = this.statement(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${TABLE_PREFIX}%'`).pluck().all() as string[];
    for (const name of names) this.tables.add(name.slice(TABLE_PREFIX.length));
  }

  async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    if (this.pending === null) return this.writeRow(collection, doc.id, toJson(doc), position, true);
    const stored = this.pending.get(collection, doc.id)?.position ?? this.storedPosition(collection, doc.id);
    if (stored !== null && stored >= position) return false;
    this.pending.write(collection, doc.id, toJson(doc), position);
    return true;
  }

  async get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const known = this.pending?.get(collection, id);
    if (known !== undefined) return { doc: JSON.parse(known.json) as D, position: known.position };
    if (!this.tables.has(collection)) return null;
    const row = this.statement(`SELECT position, doc FROM ${tableOf(collection)} WHERE id = ?`).get(id) as { position: string; doc: string } | undefined;
    if (row === undefined) return null;
    const position = BigInt(row.position);
    this.pending?.remember(collection, id, row.doc, position);
    return { doc: JSON.parse(row.doc) as D, position };
  }

  async find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]> {
    const { tail, params } = compileFind(query);
    this.flushPending(collection);
    if (!this.tables.has(collection)) return [];
    const rows = this.statement(`SELECT doc FROM ${tableOf(collection)}${tail}`).pluck().all(...params) as string[];
    return rows.map((doc) => JSON.parse(doc) as D);
  }

  async count(collection: string, where?: Readonly<Record<string, FieldValue>>): Promise<number> {
    this.flushPending(collection);
    if (!this.tables.has(collection)) return 0;
    const { tail, params } = compileCount(where);
    return this.statement(`SELECT count(*) FROM ${tableOf(collection)}${tail}`).pluck().get(...params) as number;
  }

  /** Each index on the same expressions the queries order by, so that a team's page is read in order. */
  async ensureIndexes(collection: string, indexes: readonly (readonly SortKey[])[]): Promise<void> {
    this.ensureTable(collection);
    for (const keys of indexes) {
      if (keys.length === 0) continue;
      const name = `ix_${createHash('sha256').update(`${collection}\u0000${JSON.stringify(keys)}`).digest('hex').slice(0, 16)}`;
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${quoteIdentifier(name)} ON ${tableOf(collection)} (${keys.flatMap(orderTerms).join(', ')})`);
    }
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    const position = this.statement('SELECT position FROM checkpoints WHERE name = ?').pluck().get(name) as string | undefined;
    return position === undefined ? null : BigInt(position);
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    this.statement(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE excluded.position > position',
    ).run(name, padPosition(position));
  }

  /**
   * Everything `work` writes is kept all at once, or nothing of it when it fails: a projection's rows with
   * its checkpoint, in a savepoint. The transaction around it commits COMMIT_EVERY_MS after it opened, so
   * that the events projected meanwhile (a burst of creations) cost one commit, not one each. Other
   * calls made meanwhile (reads of the HTTP API) see the writes already made, as they would in memory; a
   * crash before the commit loses the rows and the checkpoint together, and the next start folds them again.
   */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const pending = this.openTransaction();
      this.working = true;
      pending.beginWork();
      this.statement('SAVEPOINT atomically').run();
      try {
        const result = await work();
        this.statement('RELEASE atomically').run();
        pending.endWork();
        return result;
      } catch (error) {
        pending.undoWork();
        if (this.db.inTransaction) {
          this.statement('ROLLBACK TO atomically').run();
          this.statement('RELEASE atomically').run();
          this.loadTables();
        }
        throw error;
      } finally {
        this.working = false;
      }
    };
    const result = this.transactionTail.then(run, run);
    this.transactionTail = result.catch(() => undefined);
    return result;
  }

  /** Opens the transaction, unless open; it commits COMMIT_EVERY_MS later, once no work is running. */
  private openTransaction(): PendingDocuments {
    if (this.pending !== null) return this.pending;
    // IMMEDIATE: another process sharing the file waits for the write lock here, not at the first write.
    this.statement('BEGIN IMMEDIATE').run();
    const pending = new PendingDocuments();
    this.pending = pending;
    const commit = () => {
      // A work still running (waiting on something slower) commits as soon as it is done.
      if (this.working) return void setImmediate(commit);
      this.commitPending();
    };
    setTimeout(commit, COMMIT_EVERY_MS).unref();
    return pending;
  }

  private commitPending(): void {
    if (this.pending === null) return;
    this.flushPending();
    this.pending = null;
    if (this.db.open && this.db.inTransaction) this.statement('COMMIT').run();
  }

  /** Writes what the transaction changed (of one collection, or all) to SQLite, inside it. */
  private flushPending(collection?: string): void {
    if (this.pending === null || (collection !== undefined && !this.pending.hasDirty(collection))) return;
    this.pending.flush((name, id, { json, position }) => this.writeRow(name, id, json, position, false), collection);
  }

  /** `guarded`: only over an older position (the pending writes were checked already). */
  private writeRow(collection: string, id: string, json: string, position: bigint, guarded: boolean): boolean {
    this.ensureTable(collection);
    const info = this.statement(
      `INSERT INTO ${tableOf(collection)} (id, position, doc) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc${guarded ? ' WHERE excluded.position > position' : ''}`,
    ).run(id, padPosition(position), json);
    return info.changes > 0;
  }

  private storedPosition(collection: string, id: string): bigint | null {
    if (!this.tables.has(collection)) return null;
    const position = this.statement(`SELECT position FROM ${tableOf(collection)} WHERE id = ?`).pluck().get(id) as string | undefined;
    return position === undefined ? null : BigInt(position);
  }

  async dropAll(): Promise<void> {
    this.pending?.clear();
    for (const collection of this.tables) this.db.exec(`DROP TABLE IF EXISTS ${tableOf(collection)}`);
    this.tables.clear();
    // Statements of dropped tables cannot run again; the others are prepared again when used.
    this.statements.clear();
    this.db.exec('DELETE FROM checkpoints');
  }

  async close(): Promise<void> {
    await this.transactionTail;
    this.commitPending();
    if (this.db.open) this.db.close();
  }

  private ensureTable(collection: string): void {
    if (this.tables.has(collection)) return;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${tableOf(collection)} (id TEXT NOT NULL UNIQUE, position TEXT NOT NULL, doc TEXT NOT NULL)`);
    this.tables.add(collection);
  }

  /** Prepared once per SQL text: queries differ in their parameters, not their text. */
  private statement(sql: string): Database.Statement<SqlValue[]> {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared as Database.Statement<SqlValue[]>;
  }
}
