import { type Collection, MongoClient } from 'mongodb';
import { sealingKeyIdOf } from '../crypto/secret-box';
import { isDuplicateKey } from '../mongo/checkpoint-records';
import { clientOptions, connectOrExplain } from '../mongo/connect';
import type { KeyRecord, KeyRecords } from './key-records';

interface KeyDoc {
  /** the owner */
  _id: string;
  sealed: string | null;
  /** the service key `sealed` is sealed under, to find those a rotation left behind */
  sealed_by?: string;
}

interface TombstoneDoc {
  /** the owner */
  _id: string;
  destroyed_at: string | null;
}

/** The vault's database: not the read models', whose collections a rebuild drops. */
export const keyVaultDatabase = (readModelsDatabase: string): string => `${readModelsDatabase}_keys`;

/**
 * The key vault's records in MongoDB (MONGO_URL without DATABASE_URL), shared by every instance. It must
 * work on FerretDB, whose conditional updates read and then write (two writers can both match), so its
 * decisions rest on inserts under a unique `_id` only: a key is inserted once (the first one wins), a
 * destruction inserts the owner's tombstone (the first one wins, with its time) before clearing the key.
 * An insert or a reseal racing a destruction could write a key after it was cleared: each checks for the
 * tombstone after writing and clears the key again, so one of the two always clears last. A tombstone is
 * what makes an owner destroyed, whatever its key document says.
 */
export class MongoKeyRecords implements KeyRecords {
  private constructor(
    private readonly client: MongoClient,
    private readonly databaseName: string,
  ) {}

  /** Connects now: an unreachable server fails the start here. */
  static async connect(url: string, databaseName: string): Promise<MongoKeyRecords> {
    const client = new MongoClient(url, clientOptions(url));
    await connectOrExplain(client, url, 'key vault');
    return new MongoKeyRecords(client, databaseName);
  }

  async read(owner: string): Promise<KeyRecord | undefined> {
    const [tombstone, key] = await Promise.all([this.tombstones().findOne({ _id: owner }), this.keys().findOne({ _id: owner })]);
    if (tombstone !== null) return { sealed: null, destroyedAt: tombstone.destroyed_at };
    if (key === null) return undefined;
    return key.sealed === null ? { sealed: null, destroyedAt: null } : { sealed: key.sealed, destroyedAt: null };
  }

  async insert(owner: string, sealed: string): Promise<void> {
    try {
      await this.keys().insertOne({ _id: owner, sealed, sealed_by: sealingKeyIdOf({ sealed }) ?? 'unknown' });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    await this.clearIfDestroyed(owner);
  }

  async reseal(owner: string, was: string, now: string): Promise<void> {
    await this.keys().updateOne({ _id: owner, sealed: was }, { $set: { sealed: now, sealed_by: sealingKeyIdOf({ sealed: now }) ?? 'unknown' } });
    await this.clearIfDestroyed(owner);
  }

  async destroy(owner: string, at: string | null): Promise<void> {
    try {
      await this.tombstones().insertOne({ _id: owner, destroyed_at: at });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    await this.clear(owner);
  }

  async sealedUnderOtherKeys(keyId: string): Promise<readonly { owner: string; sealed: string }[]> {
    const docs = await this.keys().find({ sealed_by: { $exists: true, $ne: keyId } }).toArray();
    return docs.flatMap((doc) => (doc.sealed === null ? [] : [{ owner: doc._id, sealed: doc.sealed }]));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async clearIfDestroyed(owner: string): Promise<void> {
    if ((await this.tombstones().findOne({ _id: owner })) !== null) await this.clear(owner);
  }

  private async clear(owner: string): Promise<void> {
    await this.keys().updateOne({ _id: owner }, { $set: { sealed: null }, $unset: { sealed_by: '' } });
  }

  private keys(): Collection<KeyDoc> {
    return this.client.db(this.databaseName).collection<KeyDoc>('key_vault');
  }

  private tombstones(): Collection<TombstoneDoc> {
    return this.client.db(this.databaseName).collection<TombstoneDoc>('key_vault_tombstones');
  }
}
