import { type Collection, type Document, type Filter, MongoClient, type Sort } from 'mongodb';
import { type CheckpointRecord, isDuplicateKey, type LegacyCheckpoint, MongoCheckpointRecords, padPosition } from '../mongo/checkpoint-records';
import { clientOptions, connectOrExplain } from '../mongo/connect';
import { KEPT_BY_DROP_ALL } from '../mongo/coordination-collections';
import { checkStartAfter, compileQuery, effectiveOrder, firstInOrder } from './memory-query';
import { containsPattern, decodeValue, encodeString, encodeValue } from './mongo-encoding';
import type { Between, Contains, FieldValue, FindQuery, ReadDocument, ReadStore, SortKey, StoredDocument } from './port';

const CHECKPOINTS = '_checkpoints';

interface StoredShape {
  _id: string;
  _position: string;
  [field: string]: unknown;
}

const mongoField = (field: string): string => (field === 'id' ? '_id' : field);

/** A query's value as documents store it (mongo-encoding.ts). */
const stored = <V extends FieldValue>(value: V): V => (typeof value === 'string' ? (encodeString(value) as V) : value);

const whereFilter = (where: Readonly<Record<string, FieldValue>> | undefined): Filter<Document> => {
  const filter: Filter<Document> = {};
  // `{field: null}` also matches a missing field, which is what the memory store does too.
  for (const [field, value] of Object.entries(where ?? {})) filter[mongoField(field)] = stored(value);
  return filter;
};

/**
 * MongoDB sorts null (and missing) < numbers < strings < booleans, but $gt and $lt compare only within
 * one type; "strictly after v in sort order" is therefore "beyond v within its type, or of a type that
 * sorts after it".
 */
const TYPE_ORDER = [null, 'number', 'string', 'bool'] as const;

const typeIndex = (value: FieldValue): number =>
  value === null ? 0 : typeof value === 'number' ? 1 : typeof value === 'string' ? 2 : 3;

/** A condition no document meets. */
const NOTHING: Filter<Document> = { _id: { $exists: false } };

const anyOf = (alternatives: Filter<Document>[]): Filter<Document> => {
  if (alternatives.length === 0) return NOTHING;
  return alternatives.length === 1 ? alternatives[0] : { $or: alternatives };
};

const strictlyAfter = (field: string, value: FieldValue, { direction, missing }: SortKey): Filter<Document> => {
  const index = typeIndex(value);
  const alternatives: Filter<Document>[] = [];
  if (missing === 'last') {
    // Missing and null sort after every value, in both directions; nothing sorts after them.
    if (value === null) return NOTHING;
    alternatives.push({ [field]: { [direction === 'asc' ? '$gt' : '$lt']: stored(value) } });
    const others = direction === 'asc' ? TYPE_ORDER.slice(index + 1) : TYPE_ORDER.slice(1, index);
    for (const type of others) if (type !== null) alternatives.push({ [field]: { $type: type } });
    alternatives.push({ [field]: null });
    return anyOf(alternatives);
  }
  const others = direction === 'asc' ? TYPE_ORDER.slice(index + 1) : TYPE_ORDER.slice(0, index);
  if (value !== null) alternatives.push({ [field]: { [direction === 'asc' ? '$gt' : '$lt']: stored(value) } });
  for (const type of others) alternatives.push(type === null ? { [field]: null } : { [field]: { $type: type } });
  // Descending, nothing sorts after null.
  return anyOf(alternatives);
};

/** (k1 after v1) or (k1 = v1 and k2 after v2) or ... */
const keysetFilter = (keys: readonly SortKey[], values: readonly FieldValue[]): Filter<Document> => ({
  $or: keys.map((key, i) => {
    const equalBefore: Filter<Document> = {};
    for (let j = 0; j < i; j += 1) equalBefore[mongoField(keys[j].field)] = stored(values[j]);
    return { $and: [equalBefore, strictlyAfter(mongoField(key.field), values[i], key)] };
  }),
});

const betweenFilter = ({ field, gte, lte }: Between): Filter<Document> => ({
  [mongoField(field)]: { ...(gte !== undefined ? { $gte: stored(gte) } : {}), ...(lte !== undefined ? { $lte: stored(lte) } : {}) },
});

/** $regex on an array field matches when any of its strings matches, as Contains asks. */
const containsFilter = ({ field, text }: Contains): Filter<Document> => ({ [mongoField(field)]: { $regex: containsPattern(text) } });

/**
 * The queries a missing-last order is answered by: one per combination of "has the field" and "has not"
 * over its missing-last keys. Within one of them a plain sort is the right order (the missing-last keys
 * are either all present or all missing there), so no aggregation expression is needed, which FerretDB
 * lacks; their results are merged in the order's comparison.
 */
const presenceSplits = (order: readonly SortKey[]): Filter<Document>[] => {
  let splits: Filter<Document>[] = [{}];
  for (const key of order) {
    if (key.missing !== 'last') continue;
    const field = mongoField(key.field);
    splits = splits.flatMap((split) => [
      { ...split, [field]: { $ne: null } },
      { ...split, [field]: null },
    ]);
  }
  return splits;
};

const toDocument = <D extends ReadDocument>(found: StoredShape): D => {
  const { _id, _position, ...fields } = found;
  return { ...(decodeValue(fields) as object), id: decodeValue(_id) } as unknown as D;
};

/**
 * The production read store: one MongoDB collection per read-store collection, documents as
 * `{_id: id, ...fields, _position}` with the position as a zero-padded string.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly checkpoints = new MongoCheckpointRecords(
    () => this.client.db(this.databaseName).collection<CheckpointRecord>(CHECKPOINTS),
    () => this.client.db(this.databaseName).collection<LegacyCheckpoint>(CHECKPOINTS),
  );

  /** Connects lazily, on the first operation. */
  constructor(url: string, private readonly databaseName: string) {
    // Dropped rather than stored as null, so that documents read back as they were written.
    this.client = new MongoClient(url, clientOptions(url, { ignoreUndefined: true }));
  }

  /** Connects now, so that a wrong or unreachable URL fails at start-up (with the address) rather than at the first request. */
  static async connect(url: string, databaseName: string): Promise<MongoReadStore> {
    const store = new MongoReadStore(url, databaseName);
    await connectOrExplain(store.client, url, 'read store');
    await store.checkpoints.ensureIndex();
    return store;
  }

  async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    const padded = padPosition(position);
    const { id: plainId, ...fields } = doc;
    const id = encodeString(plainId);
    const replacement = { ...(encodeValue(fields) as Document), _position: padded };
    // A document that exists with a newer position does not match the filter, so the upsert tries an
    // insert and trips on _id. Two first writes racing trip the same way: the second attempt sees the
    // winner's document and decides by position.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const result = await this.collection(collection).replaceOne({ _id: id, _position: { $lt: padded } }, replacement, { upsert: true });
        return result.matchedCount + result.upsertedCount > 0;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return false;
  }

  async get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const found = await this.collection(collection).findOne({ _id: encodeString(id) });
    return found === null ? null : { doc: toDocument<D>(found), position: BigInt(found._position) };
  }

  async find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]> {
    const order = effectiveOrder(query.orderBy);
    checkStartAfter(query, order);
    if (query.limit !== undefined && query.limit <= 0) return [];
    const conditions: Filter<Document>[] = [whereFilter(query.where)];
    if (query.greaterThan) conditions.push({ [mongoField(query.greaterThan.field)]: { $gt: stored(query.greaterThan.value) } });
    for (const bounds of query.between ?? []) conditions.push(betweenFilter(bounds));
    for (const condition of query.contains ?? []) conditions.push(containsFilter(condition));
    if (query.startAfter) conditions.push(keysetFilter(order.slice(0, query.startAfter.length), query.startAfter));
    const sort: Sort = order.map((k): [string, 1 | -1] => [mongoField(k.field), k.direction === 'asc' ? 1 : -1]);
    const splits = presenceSplits(order);
    const parts = await Promise.all(
      splits.map(async (split) => {
        let cursor = this.collection(collection)
          .find({ $and: [...conditions, split] } as Filter<StoredShape>)
          .sort(sort);
        if (query.limit !== undefined) cursor = cursor.limit(query.limit);
        return (await cursor.toArray()).map((found) => toDocument<D>(found));
      }),
    );
    if (parts.length === 1) return parts[0]!;
    const merged = firstInOrder(compileQuery({ orderBy: order }).compare, query.limit);
    for (const part of parts) for (const doc of part) merged.offer(doc);
    return merged.result() as D[];
  }

  async count(collection: string, where?: Readonly<Record<string, FieldValue>>): Promise<number> {
    return this.collection(collection).countDocuments(whereFilter(where) as Filter<StoredShape>);
  }

  async ensureIndexes(collection: string, indexes: readonly (readonly SortKey[])[]): Promise<void> {
    for (const keys of indexes) {
      await this.collection(collection).createIndex(Object.fromEntries(keys.map((k) => [mongoField(k.field), k.direction === 'asc' ? 1 : -1])));
    }
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.load(name);
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    await this.checkpoints.save(name, position);
  }

  /** No transactions: each write is guarded by position, and a projection saves its checkpoint last. */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  /** Leaves the subscribers' checkpoints and leases (the checkpoint store's, in the same database) alone. */
  async dropAll(): Promise<void> {
    const db = this.client.db(this.databaseName);
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    for (const { name } of collections) if (!name.startsWith('system.') && !KEPT_BY_DROP_ALL.has(name)) await db.dropCollection(name);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private collection(name: string): Collection<StoredShape> {
    if (name === CHECKPOINTS || KEPT_BY_DROP_ALL.has(name)) throw new Error(`${name} is reserved for checkpoints`);
    return this.client.db(this.databaseName).collection<StoredShape>(name);
  }
}
