import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoCheckpointStore } from '../../src/adapters/checkpoint-store/mongo-checkpoint-store';
import { PostgresCheckpointStore } from '../../src/adapters/checkpoint-store/postgres-checkpoint-store';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import { sharedFerretdb } from '../support/ferretdb';
import { freePort } from '../support/free-port';
import { freshPostgresDatabase } from '../support/postgres';
import { checkpointStoreContract } from './checkpoint-store.contract';

const sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'checkpoints-'));
const fileOf = new WeakMap<object, string>();
checkpointStoreContract('SQLite (processes on one host)', {
  make: async () => {
    const file = path.join(sqliteDir, `${randomUUID()}.sqlite3`);
    const store = new SqliteCheckpointStore(file);
    fileOf.set(store, file);
    return store;
  },
  openAgain: async (store) => new SqliteCheckpointStore(fileOf.get(store)!),
  cleanup: async () => rmSync(sqliteDir, { recursive: true, force: true }),
});

let postgresUrl: Promise<string> | null = null;
const postgres = () => (postgresUrl ??= freshPostgresDatabase('checkpoints'));
checkpointStoreContract('PostgreSQL', {
  make: async () => PostgresCheckpointStore.connect(await postgres()),
  openAgain: async () => PostgresCheckpointStore.connect(await postgres()),
});

let mongoTarget: Promise<{ url: string; database: string }> | null = null;
const mongo = () =>
  (mongoTarget ??= sharedFerretdb().then((ferretdb) => ({ url: ferretdb.url, database: ferretdb.databaseName('checkpoints') })));
checkpointStoreContract('MongoDB wire protocol on FerretDB', {
  make: async () => {
    const { url, database } = await mongo();
    return MongoCheckpointStore.connect(url, database);
  },
  openAgain: async () => {
    const { url, database } = await mongo();
    return MongoCheckpointStore.connect(url, database);
  },
  cleanup: async () => {
    if (mongoTarget === null) return;
    const { url, database } = await mongoTarget;
    const client = new MongoClient(url);
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
  },
});

describe('SQLite checkpoint store (subscriber progress that survives a restart)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('still has its checkpoints and leases when opened again', async () => {
    const file = path.join(dir, 'checkpoints.sqlite3');
    const first = new SqliteCheckpointStore(file);
    await first.saveCheckpoint('webhooks', 9n);
    const lease = await first.acquireLease('webhooks', 'api-1', 60_000);
    await first.close();
    const reopened = new SqliteCheckpointStore(file);
    assert.equal(await reopened.loadCheckpoint('webhooks'), 9n);
    assert.deepEqual(await reopened.readLease('webhooks'), lease);
    await reopened.close();
  });
});

describe('MongoDB checkpoint store: upgrade', () => {
  it("starts from the checkpoints subscribers kept in the read store's _checkpoints before, and moves on from there", async () => {
    const { url, database } = await mongo();
    const client = new MongoClient(url);
    const store = await MongoCheckpointStore.connect(url, database);
    try {
      const name = `subscriber:upgraded-${randomUUID()}`;
      await client.db(database).collection<{ _id: string; position: string }>('_checkpoints').insertOne({ _id: name, position: '00000000000000000042' });
      assert.equal(await store.loadCheckpoint(name), 42n);
      await store.saveCheckpoint(name, 43n);
      assert.equal(await store.loadCheckpoint(name), 43n);
    } finally {
      await store.close();
      await client.close();
    }
  });
});

describe('MongoDB checkpoint store: start', () => {
  it('fails at once with the address (and no password) when the server cannot be reached', async function () {
    this.timeout(30_000);
    await assert.rejects(MongoCheckpointStore.connect(`mongodb://meeting:secret-password@127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=500`, 'x'), (error: Error) => {
      assert.match(error.message, /cannot reach MongoDB at mongodb:\/\/meeting@127\.0\.0\.1:\d+\/\?serverSelectionTimeoutMS=500 \(MONGO_URL\)/);
      assert.doesNotMatch(error.message, /secret-password/);
      return true;
    });
  });
});
