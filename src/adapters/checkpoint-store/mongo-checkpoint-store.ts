import { type Collection, MongoClient } from 'mongodb';
import { type CheckpointRecord, isDuplicateKey, type LegacyCheckpoint, MongoCheckpointRecords, padPosition } from '../mongo/checkpoint-records';
import { clientOptions, connectOrExplain } from '../mongo/connect';
import { LEASES, LEGACY_SUBSCRIBER_CHECKPOINTS, SUBSCRIBER_CHECKPOINTS } from '../mongo/coordination-collections';
import { type CheckpointStore, type Lease, LeaseLost } from './port';

/** One state of a lease: every change (acquire, renew, release) is a new record with the next `seq`. */
interface LeaseRecord {
  /** `<name>#<seq>`: unique, so only one of two writers that read the same state can write its successor */
  _id: string;
  name: string;
  /** zero-padded, so that text order is numeric order */
  seq: string;
  owner: string | null;
  epoch: number;
  expiresAt: Date;
}

type NextState = Pick<LeaseRecord, 'owner' | 'epoch' | 'expiresAt'>;

/** How often a transition reads again after another writer got in first, before it gives up. */
const ATTEMPTS = 3;

const toLease = (record: LeaseRecord): Lease => ({ name: record.name, owner: record.owner!, epoch: record.epoch, expiresAt: record.expiresAt });

const isHeldBy = (record: LeaseRecord | undefined, lease: Lease, now: Date): record is LeaseRecord =>
  record !== undefined && record.owner === lease.owner && record.epoch === lease.epoch && record.expiresAt > now;

/**
 * Checkpoints and leases in MongoDB (MONGO_URL), beside the read models. It must work on FerretDB, which
 * has no transactions and whose conditional updates read and then write (two writers can both match), so
 * nothing here relies on an atomic update: the only atomic step is inserting a document under a unique
 * `_id`. A lease is a chain of records; a change reads the latest record (seq n), decides, and inserts
 * seq n + 1: of two writers that read the same state, one insert fails. A writer that read a state already
 * superseded (and its successor since deleted) could insert a stale seq, so every writer reads the latest
 * again after its insert and counts only if it is the latest. Older records are then deleted.
 * The clock is the server's, read from `hello` (`localTime`).
 */
export class MongoCheckpointStore implements CheckpointStore {
  private readonly checkpoints: MongoCheckpointRecords;

  private constructor(
    private readonly client: MongoClient,
    private readonly databaseName: string,
  ) {
    const db = () => this.client.db(this.databaseName);
    // Before this store, subscribers kept their checkpoints in the read store's `_checkpoints`.
    this.checkpoints = new MongoCheckpointRecords(
      () => db().collection<CheckpointRecord>(SUBSCRIBER_CHECKPOINTS),
      () => db().collection<LegacyCheckpoint>(LEGACY_SUBSCRIBER_CHECKPOINTS),
    );
  }

  /** Connects now and creates the indexes (idempotent): an unreachable server fails the start here. */
  static async connect(url: string, databaseName: string): Promise<MongoCheckpointStore> {
    const client = new MongoClient(url, clientOptions(url));
    await connectOrExplain(client, url, 'checkpoint store');
    const store = new MongoCheckpointStore(client, databaseName);
    await store.checkpoints.ensureIndex();
    await store.leases().createIndex({ name: 1, seq: -1 });
    return store;
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.load(name);
  }

  async saveCheckpoint(name: string, position: bigint, holder?: Lease): Promise<void> {
    if (holder === undefined) return this.checkpoints.save(name, position);
    if (!isHeldBy(await this.latest(holder.name), holder, await this.serverNow())) throw new LeaseLost(holder);
    await this.checkpoints.save(name, position);
    // A takeover between the check and the save: the position saved was fully handled, but its writer must stop.
    if (!isHeldBy(await this.latest(holder.name), holder, await this.serverNow())) throw new LeaseLost(holder);
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | null> {
    const record = await this.transition(name, (latest, now) => {
      const live = latest !== undefined && latest.owner !== null && latest.expiresAt > now;
      if (live && latest.owner !== owner) return null;
      // Renewed by its holder at the same epoch; anything else is a new holding.
      return { owner, epoch: live ? latest.epoch : (latest?.epoch ?? 0) + 1, expiresAt: new Date(now.getTime() + ttlMs) };
    });
    return record === null ? null : toLease(record);
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<Lease | null> {
    const record = await this.transition(lease.name, (latest, now) =>
      isHeldBy(latest, lease, now) ? { owner: lease.owner, epoch: lease.epoch, expiresAt: new Date(now.getTime() + ttlMs) } : null,
    );
    return record === null ? null : toLease(record);
  }

  async releaseLease(lease: Lease): Promise<void> {
    await this.transition(lease.name, (latest, now) =>
      latest !== undefined && latest.owner === lease.owner && latest.epoch === lease.epoch ? { owner: null, epoch: lease.epoch, expiresAt: now } : null,
    );
  }

  async readLease(name: string): Promise<Lease | null> {
    const latest = await this.latest(name);
    return latest !== undefined && latest.owner !== null && latest.expiresAt > (await this.serverNow()) ? toLease(latest) : null;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Writes the state `decide` makes of the latest one; null when it declines or another writer keeps winning. */
  private async transition(name: string, decide: (latest: LeaseRecord | undefined, now: Date) => NextState | null): Promise<LeaseRecord | null> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const now = await this.serverNow();
      const latest = await this.latest(name);
      const next = decide(latest, now);
      if (next === null) return null;
      const seq = padPosition(latest === undefined ? 1n : BigInt(latest.seq) + 1n);
      const record: LeaseRecord = { _id: `${name}#${seq}`, name, seq, ...next };
      try {
        await this.leases().insertOne(record);
      } catch (error) {
        if (isDuplicateKey(error)) continue;
        throw error;
      }
      if ((await this.latest(name))?._id !== record._id) {
        await this.leases().deleteOne({ _id: record._id });
        return null;
      }
      await this.leases().deleteMany({ name, seq: { $lt: seq } });
      return record;
    }
    return null;
  }

  private async latest(name: string): Promise<LeaseRecord | undefined> {
    const [latest] = await this.leases().find({ name }).sort({ seq: -1 }).limit(1).toArray();
    return latest;
  }

  /** The server's clock: leases expire by it, whatever the clocks of the processes holding them say. */
  private async serverNow(): Promise<Date> {
    const hello = await this.client.db('admin').command({ hello: 1 });
    if (!(hello.localTime instanceof Date)) throw new Error('the MongoDB server did not report its time (hello.localTime): leases need the server clock');
    return hello.localTime;
  }

  private leases(): Collection<LeaseRecord> {
    return this.client.db(this.databaseName).collection<LeaseRecord>(LEASES);
  }
}
