import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { openKeyVault } from '../../src/adapters/key-vault';
import { keyVaultDatabase, MongoKeyRecords } from '../../src/adapters/key-vault/mongo-key-records';
import type { KeyVault } from '../../src/adapters/key-vault/port';
import { PostgresKeyRecords } from '../../src/adapters/key-vault/postgres-key-records';
import { SqliteKeyRecords } from '../../src/adapters/key-vault/sqlite-key-records';
import { sharedFerretdb } from '../support/ferretdb';
import { freshPostgresDatabase } from '../support/postgres';
import { boxOf, keyVaultContract } from './key-vault.contract';

const SECRET = Buffer.alloc(32, 1);
const folder = () => mkdtempSync(path.join(os.tmpdir(), 'key-vault-'));

const sqliteDir = folder();
keyVaultContract('SQLite file (one host)', {
  records: async () => new SqliteKeyRecords(path.join(sqliteDir, 'key-vault.sqlite3')),
  sealedKept: async (owner) => {
    const db = new Database(path.join(sqliteDir, 'key-vault.sqlite3'), { readonly: true });
    try {
      return (db.prepare('SELECT sealed FROM key_vault WHERE owner = ?').get(owner) as { sealed: string | null } | undefined)?.sealed ?? null;
    } finally {
      db.close();
    }
  },
  cleanup: async () => rmSync(sqliteDir, { recursive: true, force: true }),
});

let postgresUrl: Promise<string> | null = null;
const postgres = () => (postgresUrl ??= freshPostgresDatabase('key_vault'));
keyVaultContract('PostgreSQL', {
  records: async () => PostgresKeyRecords.connect(await postgres()),
  sealedKept: async (owner) => {
    const client = new pg.Client({ connectionString: await postgres() });
    await client.connect();
    try {
      return (await client.query<{ sealed: string | null }>('SELECT sealed FROM key_vault WHERE owner = $1', [owner])).rows[0]?.sealed ?? null;
    } finally {
      await client.end();
    }
  },
});

let mongoTarget: Promise<{ url: string; database: string }> | null = null;
const mongo = () => (mongoTarget ??= sharedFerretdb().then((ferretdb) => ({ url: ferretdb.url, database: ferretdb.databaseName('key_vault') })));
const dropDatabase = async (target: { url: string; database: string }, database = target.database) => {
  const client = new MongoClient(target.url);
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
};
keyVaultContract('MongoDB wire protocol on FerretDB', {
  records: async () => {
    const { url, database } = await mongo();
    return MongoKeyRecords.connect(url, database);
  },
  sealedKept: async (owner) => {
    const { url, database } = await mongo();
    const client = new MongoClient(url);
    try {
      return (await client.db(database).collection<{ _id: string; sealed: string | null }>('key_vault').findOne({ _id: owner }))?.sealed ?? null;
    } finally {
      await client.close();
    }
  },
  cleanup: async () => {
    if (mongoTarget) await dropDatabase(await mongoTarget);
  },
});

describe('key vault: the SQLite file', () => {
  let dir: string;
  let file: string;
  let vault: KeyVault;
  beforeEach(async () => {
    dir = folder();
    file = path.join(dir, 'key-vault.sqlite3');
    vault = await openKeyVault({ mongoDatabase: 'unused', dataDir: dir }, boxOf(SECRET));
  });
  afterEach(async () => {
    await vault.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The file and its write-ahead log, as bytes someone copying the data folder would get. */
  const onDisk = () => ['', '-wal'].map((suffix) => (existsSync(file + suffix) ? readFileSync(file + suffix).toString('latin1') : '')).join('');
  const sealedOf = (owner: string): string => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT sealed FROM key_vault WHERE owner = ?').get(owner) as { sealed: string }).sealed;
    } finally {
      db.close();
    }
  };

  it('keeps keys only sealed with the service secret: a copy of the data folder alone opens nothing', async () => {
    const key = (await vault.keyToSeal('bot-1'))!;
    for (const form of [key.toString('base64'), key.toString('hex'), key.toString('latin1')]) assert.ok(!onDisk().includes(form), 'no key in clear');
    assert.throws(() => boxOf(Buffer.alloc(32, 2)).open({ sealed: sealedOf('bot-1') }), /does not have/, 'another secret opens nothing');
  });

  it("erases a destroyed key's bytes from the file and its write-ahead log", async () => {
    await vault.keyToSeal('bot-1');
    await vault.keyToSeal('bot-2');
    // v2.<key id>.<iv>.<tag>.<ciphertext>: none of what belongs to this key may remain
    const parts = sealedOf('bot-1').split('.').slice(2);
    for (const part of parts) assert.ok(onDisk().includes(part));
    await vault.destroy('bot-1', '2026-03-03T10:00:00.000Z');
    for (const part of parts) assert.ok(!onDisk().includes(part), 'the sealed key is gone from the disk');
    assert.equal((await vault.lookup('bot-2')).state, 'live', 'the others stay');
  });
});

describe('key vault: PostgreSQL', () => {
  it("keeps a key in one place for every instance, and a destroyed key's sealed bytes are gone from the table's pages", async () => {
    const databaseUrl = await freshPostgresDatabase('key_vault_pages');
    const dir = folder();
    const [one, other] = [await openKeyVault({ databaseUrl, mongoDatabase: 'unused', dataDir: dir }, boxOf(SECRET)), await openKeyVault({ databaseUrl, mongoDatabase: 'unused', dataDir: dir }, boxOf(SECRET))];
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // Keys on both sides of it on the same page: what a plain VACUUM moves together leaves the dead bytes between.
      await one.keyToSeal('before');
      const key = await one.keyToSeal('shared');
      await one.keyToSeal('after');
      assert.deepEqual(await other.keyToSeal('shared'), key, 'the other instance opens the same key');
      const { rows } = await client.query<{ sealed: string }>('SELECT sealed FROM key_vault WHERE owner = $1', ['shared']);
      const sealed = rows[0]!.sealed;
      assert.ok(!sealed.includes(key!.toString('base64')), 'the key is stored sealed');
      // every tuple version on the table's pages, dead ones included
      await client.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
      const pages = async () => {
        const { rows: size } = await client.query<{ pages: string }>("SELECT pg_relation_size('key_vault') / current_setting('block_size')::int AS pages");
        let raw = '';
        for (let page = 0; page < Number(size[0]!.pages); page++) {
          const { rows: block } = await client.query<{ bytes: Buffer }>('SELECT get_raw_page($1, $2) AS bytes', ['key_vault', page]);
          raw += block[0]!.bytes.toString('latin1');
        }
        return raw;
      };
      assert.ok((await pages()).includes(sealed), 'the pages are read as they are');
      await other.destroy('shared', '2026-03-03T10:00:00.000Z');
      assert.deepEqual(await one.lookup('shared'), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' }, 'destroyed through one instance, gone for the other');
      // Any piece of its random part (a sealed value is `v2.<service key id>.<iv>.<tag>.<body>`) would be a leftover.
      const body = sealed.slice(sealed.lastIndexOf('.') + 1);
      const left = await pages();
      for (let at = 0; at + 12 <= body.length; at += 4) assert.ok(!left.includes(body.slice(at, at + 12)), `no piece of the sealed key on the table's pages (at ${at})`);
      assert.deepEqual((await one.lookup('after')).state, 'live', 'the other keys are kept');

      // Destroyed again (every process makes sure when it sees the deletion): nothing is written, nothing rewritten.
      const fileOf = async () => (await client.query<{ file: string }>("SELECT pg_relation_filenode('key_vault')::text AS file")).rows[0]!.file;
      const rewritten = await fileOf();
      await one.destroy('shared', '2026-03-04T10:00:00.000Z');
      await one.destroy('never-made', '2026-03-04T10:00:00.000Z');
      assert.equal(await fileOf(), rewritten, 'no rewrite of the table without a live key destroyed');
      assert.deepEqual(await other.lookup('shared'), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
    } finally {
      await client.end();
      await one.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('key vault: the keys an earlier version kept in stores of their own', () => {
  const OLD = Buffer.alloc(32, 1);
  const NEW = Buffer.alloc(32, 2);
  let dir: string;
  let opened: KeyVault[];
  beforeEach(() => {
    dir = folder();
    opened = [];
  });
  afterEach(async () => {
    await Promise.all(opened.map((vault) => vault.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  const open = async (config: { databaseUrl?: string; mongoUrl?: string; mongoDatabase?: string }, box = boxOf(NEW, OLD)) => {
    const vault = await openKeyVault({ mongoDatabase: 'unused', ...config, dataDir: dir }, box);
    opened.push(vault);
    return vault;
  };

  /** A key as the earlier stores made one: 32 random bytes, base64, sealed with the service's box. */
  const sealedKey = (key: Buffer) => boxOf(OLD).seal(key.toString('base64')).sealed;
  const credentialKey = Buffer.alloc(32, 7);
  const botKey = Buffer.alloc(32, 8);

  /**
   * Issue 21's `keys.sqlite3` and issue 25's `data-keys.sqlite3` with their own schemas, in WAL mode, copied
   * while their writers still had them open (part of the rows only in the write-ahead log), as a service
   * stopped at any moment leaves them.
   */
  const earlierFiles = () => {
    const write = (name: string, schema: string, rows: readonly (readonly unknown[])[], insert: string) => {
      const source = path.join(folder(), name);
      const db = new Database(source);
      db.pragma('journal_mode = WAL');
      db.exec(schema);
      for (const row of rows) db.prepare(insert).run(...row);
      for (const suffix of ['', '-wal']) if (existsSync(source + suffix)) writeFileSync(path.join(dir, name + suffix), readFileSync(source + suffix));
      db.close();
      rmSync(path.dirname(source), { recursive: true, force: true });
    };
    write('keys.sqlite3', 'CREATE TABLE keys (id TEXT PRIMARY KEY, sealed TEXT)', [['credential-live', sealedKey(credentialKey)], ['credential-deleted', null]], 'INSERT INTO keys (id, sealed) VALUES (?, ?)');
    write(
      'data-keys.sqlite3',
      'CREATE TABLE data_keys (owner TEXT PRIMARY KEY, sealed TEXT, destroyed_at TEXT)',
      [['bot-live', sealedKey(botKey), null], ['bot-deleted', null, '2026-03-01T09:00:00.000Z']],
      'INSERT INTO data_keys (owner, sealed, destroyed_at) VALUES (?, ?, ?)',
    );
  };

  const assertMoved = async (vault: KeyVault) => {
    assert.deepEqual(await vault.lookup('credential-live'), { state: 'live', key: credentialKey });
    assert.deepEqual(await vault.lookup('credential-deleted'), { state: 'destroyed', destroyedAt: null });
    assert.deepEqual(await vault.lookup('bot-live'), { state: 'live', key: botKey });
    assert.deepEqual(await vault.lookup('bot-deleted'), { state: 'destroyed', destroyedAt: '2026-03-01T09:00:00.000Z' });
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('keys.sqlite3') || f.startsWith('data-keys.sqlite3')), [], 'the earlier files are erased');
  };

  it('the SQLite vault takes them in at its first start and erases the earlier files; sealed again, they outlive the old service key', async () => {
    earlierFiles();
    await assertMoved(await open({}));
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.sqlite3')), ['key-vault.sqlite3'], 'one file of keys');
    await opened.pop()!.close();
    await assertMoved(await open({}, boxOf(NEW)));
  });

  it('a start that stopped between taking a file in and erasing it erases it at the next start, without taking it in again', async () => {
    const vault = await open({});
    await vault.destroy('bot-live', '2026-03-02T09:00:00.000Z');
    await opened.pop()!.close();
    earlierFiles();
    for (const name of ['keys.sqlite3', 'data-keys.sqlite3']) renameSync(path.join(dir, name), path.join(dir, `${name}.moved`));
    const again = await open({});
    assert.deepEqual(await again.lookup('bot-live'), { state: 'destroyed', destroyedAt: '2026-03-02T09:00:00.000Z' }, 'a destroyed key stays destroyed');
    assert.deepEqual(await again.lookup('credential-live'), { state: 'none' });
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('keys.sqlite3.moved')), []);
  });

  it('two processes starting at once on the same data folder (the service and the admin commands) both open, the keys moved once', async () => {
    earlierFiles();
    const [first, second] = await Promise.all([open({}), open({})]);
    await assertMoved(first);
    await assertMoved(second);
  });

  it('a vault in PostgreSQL takes in the files of the data folder it starts on', async () => {
    earlierFiles();
    const databaseUrl = await freshPostgresDatabase('key_vault_moved');
    await open({ databaseUrl });
    await assertMoved(await open({ databaseUrl }, boxOf(NEW)));
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.sqlite3')), [], 'nothing of the keys in the data folder');
  });

  it("a vault in PostgreSQL takes in issue 19's credential_keys table and drops it", async () => {
    const databaseUrl = await freshPostgresDatabase('key_vault_table');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('CREATE TABLE credential_keys (id text PRIMARY KEY, sealed text)');
      await client.query('INSERT INTO credential_keys (id, sealed) VALUES ($1, $2), ($3, NULL)', ['credential-live', sealedKey(credentialKey), 'credential-deleted']);
      const [first, second] = await Promise.all([open({ databaseUrl }), open({ databaseUrl })]);
      for (const vault of [first, second]) {
        assert.deepEqual(await vault.lookup('credential-live'), { state: 'live', key: credentialKey });
        assert.deepEqual(await vault.lookup('credential-deleted'), { state: 'destroyed', destroyedAt: null });
      }
      const { rows } = await client.query<{ table: string | null }>("SELECT to_regclass('credential_keys')::text AS table");
      assert.equal(rows[0]!.table, null, 'the earlier table is gone');
    } finally {
      await client.end();
    }
  });

  it("a vault in MongoDB takes in issue 21's credential_keys collection and drops it", async () => {
    const { url } = await mongo();
    const mongoDatabase = `moved_${randomBytes(4).toString('hex')}`;
    const client = new MongoClient(url);
    try {
      const earlier = client.db(keyVaultDatabase(mongoDatabase)).collection<{ _id: string; sealed: string | null }>('credential_keys');
      await earlier.insertMany([
        { _id: 'credential-live', sealed: sealedKey(credentialKey) },
        { _id: 'credential-deleted', sealed: null },
      ]);
      const vault = await open({ mongoUrl: url, mongoDatabase });
      assert.deepEqual(await vault.lookup('credential-live'), { state: 'live', key: credentialKey });
      assert.deepEqual(await vault.lookup('credential-deleted'), { state: 'destroyed', destroyedAt: null });
      assert.equal(await earlier.countDocuments(), 0, 'the earlier collection is gone');
    } finally {
      await client.db(keyVaultDatabase(mongoDatabase)).dropDatabase();
      await client.close();
    }
  });
});
