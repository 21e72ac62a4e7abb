import { MongoClient } from 'mongodb';
import { MemoryReadStore } from '../../src/adapters/read-store/memory-read-store';
import { MongoReadStore } from '../../src/adapters/read-store/mongo-read-store';
import { SqliteReadStore } from '../../src/adapters/read-store/sqlite-read-store';
import { sqliteFiles } from '../support/sqlite-files';
import { sharedFerretdb } from '../support/ferretdb';
import { readStoreContract } from './read-store.contract';

readStoreContract('memory', async () => new MemoryReadStore());

/** A file of its own per test, as the service keeps one in its data folder. */
const files = sqliteFiles();
readStoreContract('SQLite file', async () => new SqliteReadStore(files.newFile()), () => files.cleanup());

/**
 * Against FerretDB (a MongoDB wire-protocol server, started by the tests) in every run, and against a real
 * MongoDB as well when MONGO_URL names one.
 */
const mongoContract = (name: string, server: () => Promise<{ url: string; database: string }>) => {
  let target: { url: string; database: string } | null = null;
  const resolved = async () => (target ??= await server());
  readStoreContract(
    name,
    async () => {
      const { url, database } = await resolved();
      return MongoReadStore.connect(url, database);
    },
    async () => {
      if (target === null) return;
      const client = new MongoClient(target.url);
      try {
        await client.db(target.database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  );
};

mongoContract('MongoDB wire protocol on FerretDB', async () => {
  const ferretdb = await sharedFerretdb();
  return { url: ferretdb.url, database: ferretdb.databaseName('read_store') };
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) mongoContract('MongoDB at MONGO_URL', async () => ({ url: mongoUrl, database: `read_store_contract_${Date.now().toString(36)}` }));
