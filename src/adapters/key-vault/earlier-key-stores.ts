import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { clientOptions, connectOrExplain } from '../mongo/connect';
import { ADVISORY_LOCK, openPool } from '../postgres/pool';
import type { KeyRecords } from './key-records';

/** A key as an earlier store kept it: `sealed` null once destroyed (at `destroyedAt`, when it was kept). */
interface EarlierKey {
  readonly owner: string;
  readonly sealed: string | null;
  readonly destroyed_at: string | null;
}

/**
 * The files earlier versions kept keys in, each its own store: issue 21's vault of vc credentials' keys
 * and issue 25's store of bots' data keys. Their values are sealed with the same secret box, so they move
 * as they are.
 */
const EARLIER_FILES = [
  { file: 'keys.sqlite3', table: 'keys', select: 'SELECT id AS owner, sealed, NULL AS destroyed_at FROM keys' },
  { file: 'data-keys.sqlite3', table: 'data_keys', select: 'SELECT owner, sealed, destroyed_at FROM data_keys' },
] as const;

/** Issue 21's vault in MongoDB (a collection of the vault's database), and issue 19's in PostgreSQL (a table of the event store's). */
const EARLIER_COLLECTION = 'credential_keys';
const EARLIER_TABLE = 'credential_keys';

/** What a file moved in keeps until it is erased: a start that stops in between erases it next time, and never moves it twice. */
const MOVED_SUFFIX = '.moved';

const keep = async (records: KeyRecords, keys: readonly EarlierKey[]): Promise<void> => {
  // Of what is kept already, nothing is replaced: an owner's key stays, a destruction stays.
  for (const key of keys) await (key.sealed === null ? records.destroy(key.owner, key.destroyed_at) : records.insert(key.owner, key.sealed));
};

/** Overwrites a file's bytes with zeros on the disk before removing it: a key sealed in it must not stay readable there. */
const shred = (file: string): void => {
  if (!existsSync(file)) return;
  const fd = openSync(file, 'r+');
  try {
    const zeros = Buffer.alloc(64 * 1024);
    for (let at = 0, size = statSync(file).size; at < size; at += zeros.length) writeSync(fd, zeros, 0, Math.min(zeros.length, size - at), at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  rmSync(file, { force: true });
};

const shredDatabase = (file: string): void => {
  for (const part of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) shred(part);
};

/**
 * Moves the keys of the earlier SQLite files in DATA_DIR into the vault (whatever its engine), then erases
 * each file (its bytes overwritten): one store of keys from then on, and no copy of a key left behind to
 * survive its destruction. Returns how many keys moved.
 */
export const moveEarlierKeyFiles = async (records: KeyRecords, dataDir: string): Promise<number> => {
  let moved = 0;
  for (const earlier of EARLIER_FILES) {
    const file = path.join(dataDir, earlier.file);
    // moved before, its erasure interrupted
    shredDatabase(file + MOVED_SUFFIX);
    if (!existsSync(file)) continue;
    const db = new Database(file, { fileMustExist: true });
    try {
      const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(earlier.table) !== undefined;
      const keys = hasTable ? (db.prepare(earlier.select).all() as EarlierKey[]) : [];
      await keep(records, keys);
      moved += keys.length;
      // Everything in the file itself, so that the write-ahead log can go.
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    try {
      renameSync(file, file + MOVED_SUFFIX);
    } catch (error) {
      // Another process on the same folder (the admin commands, starting at once) moved it first.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const part of ['-wal', '-shm', '-journal']) shred(file + part);
    shredDatabase(file + MOVED_SUFFIX);
  }
  return moved;
};

/**
 * Moves the keys of issue 21's vault in MongoDB (`credential_keys` of the vault's database) into the vault,
 * then drops that collection. MongoDB gives no way to overwrite a document's bytes: see docs/decisions.md.
 */
export const moveEarlierKeyCollection = async (records: KeyRecords, mongo: { readonly url: string; readonly database: string }): Promise<number> => {
  const client = new MongoClient(mongo.url, clientOptions(mongo.url));
  await connectOrExplain(client, mongo.url, 'key vault (keys of an earlier version)');
  try {
    const earlier = client.db(mongo.database).collection<{ _id: string; sealed: string | null }>(EARLIER_COLLECTION);
    const docs = await earlier.find().toArray();
    if (docs.length === 0) return 0;
    await keep(records, docs.map((doc) => ({ owner: doc._id, sealed: doc.sealed, destroyed_at: null })));
    await earlier.drop();
    return docs.length;
  } finally {
    await client.close();
  }
};

/**
 * Moves the keys of issue 19's vault in PostgreSQL (the `credential_keys` table of the event store's
 * database: vc credentials' keys, `sealed` null once destroyed) into the vault, then drops the table, which
 * removes its file with every row version it held. Under the schema lock, in one transaction: instances
 * starting at once move it once, and a start stopped half-way moves it again (moving is idempotent).
 */
export const moveEarlierKeyTable = async (records: KeyRecords, databaseUrl: string): Promise<number> => {
  const pool = await openPool(databaseUrl, { purpose: 'key vault (keys of an earlier version)', maxConnections: 1 });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_database()))', [ADVISORY_LOCK.schema]);
    const { rows: found } = await client.query<{ table: string | null }>('SELECT to_regclass($1)::text AS table', [EARLIER_TABLE]);
    if (found[0]?.table == null) {
      await client.query('COMMIT');
      return 0;
    }
    const { rows } = await client.query<{ id: string; sealed: string | null }>(`SELECT id, sealed FROM ${EARLIER_TABLE}`);
    await keep(records, rows.map((row) => ({ owner: row.id, sealed: row.sealed, destroyed_at: null })));
    await client.query(`DROP TABLE ${EARLIER_TABLE}`);
    await client.query('COMMIT');
    return rows.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
    await pool.end();
  }
};
