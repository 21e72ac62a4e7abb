import { type Collection, type Document, type Filter, MongoClient, MongoServerError, type Sort } from 'mongodb';
import { checkStartAfter, effectiveOrder } from './memory-query';
import type { Between, Contains, FieldValue, FindQuery, ReadDocument, ReadStore, SortKey, StoredDocument } from './port';

const CHECKPOINTS = '_checkpoints';
const DUPLICATE_KEY = 11000;

/** 20 digits hold any unsigned 64-bit value, and equal-length digit strings sort numerically. */
export const padPosition = (position: bigint): string => {
  if (position < 0n) throw new Error(`positions are never negative, got ${position}`);
  const digits = position.toString(10);
  if (digits.length > 20) throw new Error(`position ${position} does not fit in 20 digits`);
  return digits.padStart(20, '0');
};

interface StoredShape {
  _id: string;
  _position: string;
  [field: string]: unknown;
}

const mongoField = (field: string): string => (field === 'id' ? '_id' : field);

const whereFilter = (where: Readonly<Record<string, FieldValue>> | undefined): Filter<Document> => {
  const filter: Filter<Document> = {};
  // `{field: null}` also matches a missing field, which is what the memory store does too.
  for (const [field, value] of Object.entries(where ?? {})) filter[mongoField(field)] = value;
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
    alternatives.push({ [field]: { [direction === 'asc' ? '$gt' : '$lt']: value } });
    const others = direction === 'asc' ? TYPE_ORDER.slice(index + 1) : TYPE_ORDER.slice(1, index);
    for (const type of others) if (type !== null) alternatives.push({ [field]: { $type: type } });
    alternatives.push({ [field]: null });
    return anyOf(alternatives);
  }
  const others = direction === 'asc' ? TYPE_ORDER.slice(index + 1) : TYPE_ORDER.slice(0, index);
  if (value !== null) alternatives.push({ [field]: { [direction === 'asc' ? '$gt' : '$lt']: value } });
  for (const type of others) alternatives.push(type === null ? { [field]: null } : { [field]: { $type: type } });
  // Descending, nothing sorts after null.
  return anyOf(alternatives);
};

/** (k1 after v1) or (k1 = v1 and k2 after v2) or ... */
const keysetFilter = (keys: readonly SortKey[], values: readonly FieldValue[]): Filter<Document> => ({
  $or: keys.map((key, i) => {
    const equalBefore: Filter<Document> = {};
    for (let j = 0; j < i; j += 1) equalBefore[mongoField(keys[j].field)] = values[j];
    return { $and: [equalBefore, strictlyAfter(mongoField(key.field), values[i], key)] };
  }),
});

const betweenFilter = ({ field, gte, lte }: Between): Filter<Document> => ({
  [mongoField(field)]: { ...(gte !== undefined ? { $gte: gte } : {}), ...(lte !== undefined ? { $lte: lte } : {}) },
});

/**
 * The text as a regular expression that matches exactly it: metacharacters escaped, and NUL written as an
 * escape because MongoDB refuses a pattern that contains the byte itself.
 */
export const literalPattern = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&').replace(/\0/g, '\\x00');

/** $regex on an array field matches when any of its strings matches, as Contains asks. */
const containsFilter = ({ field, text }: Contains): Filter<Document> => ({ [mongoField(field)]: { $regex: literalPattern(text) } });

/** The computed field that puts missing values last for the i-th sort key. */
const missingFlag = (i: number): string => `__missing_${i}`;

const toDocument = <D extends ReadDocument>(stored: StoredShape): D => {
  const { _id, _position, ...fields } = stored;
  return { ...fields, id: _id } as unknown as D;
};

/**
 * The production read store: one MongoDB collection per read-store collection, documents as
 * `{_id: id, ...fields, _position}` with the position as a zero-padded string.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;

  /** Connects lazily, on the first operation. */
  constructor(url: string, private readonly databaseName: string) {
    // Dropped rather than stored as null, so that documents read back as they were written.
    this.client = new MongoClient(url, { ignoreUndefined: true });
  }

  /** Connects now, so that a wrong URL fails at start-up rather than at the first request. */
  static async connect(url: string, databaseName: string): Promise<MongoReadStore> {
    const store = new MongoReadStore(url, databaseName);
    await store.client.connect();
    return store;
  }

  async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    const padded = padPosition(position);
    const { id, ...fields } = doc;
    const replacement = { ...fields, _position: padded };
    // A document that exists with a newer position does not match the filter, so the upsert tries an
    // insert and trips on _id. Two first writes racing trip the same way: the second attempt sees the
    // winner's document and decides by position.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const result = await this.collection(collection).replaceOne({ _id: id, _position: { $lt: padded } }, replacement, { upsert: true });
        return result.matchedCount + result.upsertedCount > 0;
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      }
    }
    return false;
  }

  async get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const stored = await this.collection(collection).findOne({ _id: id });
    return stored === null ? null : { doc: toDocument<D>(stored), position: BigInt(stored._position) };
  }

  async find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]> {
    const order = effectiveOrder(query.orderBy);
    checkStartAfter(query, order);
    if (query.limit !== undefined && query.limit <= 0) return [];
    const conditions: Filter<Document>[] = [whereFilter(query.where)];
    if (query.greaterThan) conditions.push({ [mongoField(query.greaterThan.field)]: { $gt: query.greaterThan.value } });
    for (const bounds of query.between ?? []) conditions.push(betweenFilter(bounds));
    for (const condition of query.contains ?? []) conditions.push(containsFilter(condition));
    if (query.startAfter) conditions.push(keysetFilter(order.slice(0, query.startAfter.length), query.startAfter));
    const filter = { $and: conditions } as Filter<StoredShape>;
    if (!order.some((k) => k.missing === 'last')) {
      const sort: Sort = order.map((k): [string, 1 | -1] => [mongoField(k.field), k.direction === 'asc' ? 1 : -1]);
      let cursor = this.collection(collection).find(filter).sort(sort);
      if (query.limit !== undefined) cursor = cursor.limit(query.limit);
      return (await cursor.toArray()).map((stored) => toDocument<D>(stored));
    }
    // A sort cannot put missing values last by itself: a computed 0/1 flag per such key sorts before it.
    const flags: Document = {};
    const sort: Record<string, 1 | -1> = {};
    order.forEach((key, i) => {
      const field = mongoField(key.field);
      if (key.missing === 'last') {
        flags[missingFlag(i)] = { $cond: [{ $in: [{ $type: `$${field}` }, ['missing', 'null']] }, 1, 0] };
        sort[missingFlag(i)] = 1;
      }
      sort[field] = key.direction === 'asc' ? 1 : -1;
    });
    const pipeline: Document[] = [{ $match: filter }, { $addFields: flags }, { $sort: sort }];
    if (query.limit !== undefined) pipeline.push({ $limit: query.limit });
    pipeline.push({ $project: Object.fromEntries(Object.keys(flags).map((name) => [name, 0])) });
    const stored = await this.collection(collection).aggregate<StoredShape>(pipeline).toArray();
    return stored.map((doc) => toDocument<D>(doc));
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
    const stored = await this.checkpoints().findOne({ _id: name });
    return stored === null ? null : BigInt(stored.position);
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    await this.checkpoints().updateOne({ _id: name }, { $set: { position: padPosition(position) } }, { upsert: true });
  }

  async dropAll(): Promise<void> {
    const db = this.client.db(this.databaseName);
    const collections = await db.listCollections({}, { nameOnly: true }).toArray();
    for (const { name } of collections) if (!name.startsWith('system.')) await db.dropCollection(name);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private collection(name: string): Collection<StoredShape> {
    if (name === CHECKPOINTS) throw new Error(`${CHECKPOINTS} is reserved for checkpoints`);
    return this.client.db(this.databaseName).collection<StoredShape>(name);
  }

  private checkpoints(): Collection<{ _id: string; position: string }> {
    return this.client.db(this.databaseName).collection(CHECKPOINTS);
  }
}
