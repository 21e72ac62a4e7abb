import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MemoryReadStore } from '../../src/adapters/read-store/memory-read-store';
import { MongoReadStore } from '../../src/adapters/read-store/mongo-read-store';
import { readStoreContract } from './read-store.contract';

readStoreContract('memory', async () => new MemoryReadStore());

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  const database = `read_store_contract_${randomBytes(6).toString('hex')}`;
  readStoreContract(
    'MongoDB',
    async () => MongoReadStore.connect(mongoUrl, database),
    async () => {
      const client = new MongoClient(mongoUrl);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  );
} else {
  describe('read store contract: MongoDB', function () {
    before(function () {
      console.log('  skipped: MONGO_URL is not set');
      this.skip();
    });
    it('runs the read store contract against MongoDB', () => undefined);
  });
}
