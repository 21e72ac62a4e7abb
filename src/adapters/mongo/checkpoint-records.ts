import { type Collection, MongoServerError } from 'mongodb';

export const DUPLICATE_KEY = 11000;

/** 20 digits hold any unsigned 64-bit value, and equal-length digit strings sort numerically. */
export const padPosition = (position: bigint): string => {
  if (position < 0n) throw new Error(`positions are never negative, got ${position}`);
  const digits = position.toString(10);
  if (digits.length > 20) throw new Error(`position ${position} does not fit in 20 digits`);
  return digits.padStart(20, '0');
};

export const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === DUPLICATE_KEY;

export interface CheckpointRecord {
  /** `<name>@<padded position>`: one record per position reached */
  _id: string;
  name: string;
  position: string;
}

export interface LegacyCheckpoint {
  _id: string;
  position: string;
}

/**
 * Checkpoints that only move forward on any MongoDB wire-protocol server. FerretDB has no transactions
 * and its conditional updates read, then write: two writers can both pass a `position < new` guard and
 * the slower one would put the checkpoint back. An insert under a unique `_id`, though, is atomic
 * everywhere. So every save inserts a record of its own position, the checkpoint is the greatest record,
 * and older records are deleted after: a save of an older position only adds a record that never counts.
 */
export class MongoCheckpointRecords {
  constructor(
    private readonly collection: () => Collection<CheckpointRecord>,
    /** Where versions before records kept one `{_id: name, position}` document per checkpoint: read when there is no record yet. */
    private readonly legacy: () => Collection<LegacyCheckpoint>,
  ) {}

  async ensureIndex(): Promise<void> {
    await this.collection().createIndex({ name: 1, position: -1 });
  }

  async load(name: string): Promise<bigint | null> {
    const [latest] = await this.collection().find({ name }).sort({ position: -1 }).limit(1).toArray();
    if (latest !== undefined) return BigInt(latest.position);
    const legacy = await this.legacy().findOne({ _id: name, position: { $type: 'string' } });
    return legacy === null ? null : BigInt(legacy.position);
  }

  async save(name: string, position: bigint): Promise<void> {
    const padded = padPosition(position);
    try {
      await this.collection().insertOne({ _id: `${name}@${padded}`, name, position: padded });
    } catch (error) {
      // The same position saved before (or by another writer): already there.
      if (!isDuplicateKey(error)) throw error;
    }
    await this.collection().deleteMany({ name, position: { $lt: padded } });
  }
}
