import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { SecretBox } from '../crypto/secret-box';
import type { KeyVault } from './port';
import { newSealedKey, openStoredKey } from './sealed-keys';

const DUPLICATE_KEY = 11000;

/**
 * The key vault in MongoDB, for several instances sharing one store: a database of its own
 * (`<read models' database>_keys`), because rebuilding the read models drops every collection of theirs.
 */
export class MongoKeyVault implements KeyVault {
  private readonly client: MongoClient;

  constructor(url: string, private readonly databaseName: string, private readonly box: SecretBox) {
    this.client = new MongoClient(url);
  }

  async keyFor(keyId: string): Promise<Buffer | null> {
    try {
      await this.keys().insertOne({ _id: keyId, sealed: newSealedKey(this.box) });
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    const stored = await this.keys().findOne({ _id: keyId });
    return stored === null ? null : openStoredKey(this.box, stored);
  }

  async destroy(keyId: string): Promise<void> {
    await this.keys().updateOne({ _id: keyId }, { $set: { sealed: null } }, { upsert: true });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private keys(): Collection<{ _id: string; sealed: string | null }> {
    return this.client.db(this.databaseName).collection('credential_keys');
  }
}
