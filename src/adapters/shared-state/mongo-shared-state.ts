import { type Collection, MongoClient } from 'mongodb';
import { isDuplicateKey } from '../mongo/checkpoint-records';
import { clientOptions, connectOrExplain } from '../mongo/connect';
import { BOT_CONTACTS, WINDOW_COUNTS } from '../mongo/coordination-collections';
import type { SharedState } from './port';

/** One count of a window: `<name>@<window>#<n>`, so that only one of two racing writers gets n. */
interface CountRecord {
  _id: string;
  name: string;
  window: number;
  n: number;
}

interface ContactRecord {
  _id: string;
  at: number;
}

/** How often a count is tried again after other writers took the number it read. */
const ATTEMPTS = 50;

/**
 * Shared state in MongoDB, beside the checkpoints. It must work on FerretDB, whose conditional updates
 * are not atomic, so a counter is a chain of inserts under unique ids (as the leases are): a count reads
 * the greatest n of its window and inserts n + 1; of writers that read the same n, one insert succeeds
 * and the others read again. Contacts are a plain upsert: the latest write wins, which is all liveness needs.
 */
export class MongoSharedState implements SharedState {
  private constructor(
    private readonly client: MongoClient,
    private readonly databaseName: string,
  ) {}

  static async connect(url: string, databaseName: string): Promise<MongoSharedState> {
    const client = new MongoClient(url, clientOptions(url));
    await connectOrExplain(client, url, 'shared state');
    const state = new MongoSharedState(client, databaseName);
    await state.counts().createIndex({ name: 1, window: 1, n: -1 });
    return state;
  }

  async countUp(name: string, window: number): Promise<number> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const [latest] = await this.counts().find({ name, window }).sort({ n: -1 }).limit(1).toArray();
      const n = (latest?.n ?? 0) + 1;
      try {
        await this.counts().insertOne({ _id: `${name}@${window}#${n}`, name, window, n });
        return n;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    throw new Error(`counter ${name} (window ${window}): other writers kept taking the next number`);
  }

  async dropWindowsBefore(window: number): Promise<void> {
    await this.counts().deleteMany({ window: { $lt: window } });
  }

  async noteContact(botId: string, atMs: number): Promise<void> {
    try {
      await this.contacts().updateOne({ _id: botId }, { $set: { at: Math.round(atMs) } }, { upsert: true });
    } catch (error) {
      // Two first contacts at once: the other one's insert won, which is as good.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  async lastContacts(botIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    if (botIds.length === 0) return new Map();
    const found = await this.contacts().find({ _id: { $in: [...botIds] } }).toArray();
    return new Map(found.map((c) => [c._id, c.at]));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private counts(): Collection<CountRecord> {
    return this.client.db(this.databaseName).collection<CountRecord>(WINDOW_COUNTS);
  }

  private contacts(): Collection<ContactRecord> {
    return this.client.db(this.databaseName).collection<ContactRecord>(BOT_CONTACTS);
  }
}
