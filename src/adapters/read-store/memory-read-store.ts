import type { Between, Contains, FieldValue, FindQuery, ReadDocument, ReadStore, SortKey, StoredDocument } from './port';

/**
 * Mixed types sort the way MongoDB sorts them (null and missing < numbers < strings < booleans), so
 * both implementations page through the same data identically. Anything else (objects, arrays, dates)
 * is not a FieldValue; it sorts last, by its JSON, only so that the order stays deterministic.
 */
const typeRank = (value: unknown): number => {
  if (value === null || value === undefined) return 0;
  switch (typeof value) {
    case 'number':
      return 1;
    case 'string':
      return 2;
    case 'boolean':
      return 3;
    default:
      return 4;
  }
};

/** Code point order, which is MongoDB's (UTF-8 byte) order; `<` on strings compares UTF-16 units. */
const compareStrings = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(ca) !== surrogate(cb)) return surrogate(ca) ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
};

export const compareValues = (a: unknown, b: unknown): number => {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeRank(a) === 0) return 0;
  return compareStrings(JSON.stringify(a) ?? '', JSON.stringify(b) ?? '');
};

/** The order a query returns: its keys, then id so that ties are deterministic; by id when it has none. */
export const effectiveOrder = (orderBy: readonly SortKey[] | undefined): readonly SortKey[] => {
  const keys = orderBy && orderBy.length > 0 ? orderBy : [{ field: 'id', direction: 'asc' as const }];
  return keys.some((k) => k.field === 'id') ? keys : [...keys, { field: 'id', direction: 'asc' }];
};

export const checkStartAfter = (query: FindQuery, order: readonly SortKey[]): void => {
  const expected = query.orderBy && query.orderBy.length > 0 ? query.orderBy.length : 1;
  if (query.startAfter && query.startAfter.length !== expected) {
    throw new Error(`startAfter has ${query.startAfter.length} values for ${expected} sort keys (${order.map((k) => k.field).join(', ')})`);
  }
};

/** The value at a field path (`a.b`: field b of the object in field a); undefined when it is not there. */
export const valueAt = (doc: ReadDocument, path: string): unknown => {
  if (!path.includes('.')) return doc[path];
  let value: unknown = doc;
  for (const segment of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
};

const isMissing = (value: unknown): boolean => value === null || value === undefined;

/** Built once per query: this runs on every document of the collection. */
const whereMatcher = (where: FindQuery['where']): ((doc: ReadDocument) => boolean) => {
  const conditions = Object.entries(where ?? {});
  return (doc) => {
    for (const [field, value] of conditions) {
      const actual = valueAt(doc, field);
      if (value === null ? !isMissing(actual) : actual !== value) return false;
    }
    return true;
  };
};

/** Like MongoDB's $gt, $gte and $lte: only values of the same type compare. */
const sameType = (actual: unknown, value: string | number): boolean => typeof actual === typeof value;

const greaterThan = (actual: unknown, value: string | number): boolean => sameType(actual, value) && compareValues(actual, value) > 0;

const withinBounds = (doc: ReadDocument, { field, gte, lte }: Between): boolean => {
  const actual = valueAt(doc, field);
  if (gte !== undefined && !(sameType(actual, gte) && compareValues(actual, gte) >= 0)) return false;
  return lte === undefined || (sameType(actual, lte) && compareValues(actual, lte) <= 0);
};

const containsText = (doc: ReadDocument, { field, text }: Contains): boolean => {
  const actual = valueAt(doc, field);
  if (typeof actual === 'string') return actual.includes(text);
  return Array.isArray(actual) && actual.some((item) => typeof item === 'string' && item.includes(text));
};

const compareKey = (a: unknown, b: unknown, { direction, missing }: SortKey): number => {
  if (missing === 'last' && isMissing(a) !== isMissing(b)) return isMissing(a) ? 1 : -1;
  const c = compareValues(a, b);
  return direction === 'asc' ? c : -c;
};

const compareByKeys = (a: ReadDocument, b: readonly unknown[] | ReadDocument, keys: readonly SortKey[]): number => {
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i];
    const right = Array.isArray(b) ? b[i] : valueAt(b as ReadDocument, key.field);
    const c = compareKey(valueAt(a, key.field), right, key);
    if (c !== 0) return c;
  }
  return 0;
};

/**
 * The first `limit` documents in order. A page is small and a collection large, so for a page the
 * documents are kept in a sorted array of at most `limit` (binary insertion) instead of sorting them all.
 */
const firstInOrder = (docs: ReadDocument[], compare: (a: ReadDocument, b: ReadDocument) => number, limit: number | undefined): ReadDocument[] => {
  if (limit === undefined || limit * 8 >= docs.length) return docs.sort(compare).slice(0, Math.max(0, limit ?? docs.length));
  if (limit <= 0) return [];
  const kept: ReadDocument[] = [];
  for (const doc of docs) {
    if (kept.length === limit && compare(doc, kept[limit - 1]) >= 0) continue;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(kept[middle], doc) <= 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, doc);
    if (kept.length > limit) kept.pop();
  }
  return kept;
};

/** Undefined top-level fields are dropped, as the MongoDB implementation drops them. */
const copy = <D extends ReadDocument>(doc: D): D => {
  const clone = structuredClone(doc) as Record<string, unknown>;
  for (const key of Object.keys(clone)) if (clone[key] === undefined) delete clone[key];
  return clone as D;
};

interface Entry {
  readonly doc: ReadDocument;
  readonly position: bigint;
}

/**
 * The embedded read store: plain maps, rebuilt from the event log at every start. Documents are copied
 * in and out so that callers can never change a stored document behind the store's back.
 */
export class MemoryReadStore implements ReadStore {
  private collections = new Map<string, Map<string, Entry>>();
  private checkpoints = new Map<string, bigint>();

  async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    const documents = this.collection(collection);
    const stored = documents.get(doc.id);
    if (stored !== undefined && stored.position >= position) return false;
    documents.set(doc.id, { doc: copy(doc), position });
    return true;
  }

  async get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const stored = this.collections.get(collection)?.get(id);
    return stored === undefined ? null : { doc: copy(stored.doc) as D, position: stored.position };
  }

  async find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]> {
    const order = effectiveOrder(query.orderBy);
    checkStartAfter(query, order);
    const startAfter = query.startAfter;
    // startAfter carries only the caller's keys: the implicit id tie-breaker is not part of the cursor.
    const cursorKeys = order.slice(0, startAfter?.length ?? 0);
    const { greaterThan: gt, between = [], contains = [] } = query;
    const matches = whereMatcher(query.where);
    const found: ReadDocument[] = [];
    for (const { doc } of this.collections.get(collection)?.values() ?? []) {
      if (!matches(doc)) continue;
      if (gt !== undefined && !greaterThan(valueAt(doc, gt.field), gt.value)) continue;
      if (!between.every((bounds) => withinBounds(doc, bounds))) continue;
      if (!contains.every((condition) => containsText(doc, condition))) continue;
      if (startAfter !== undefined && compareByKeys(doc, startAfter, cursorKeys) <= 0) continue;
      found.push(doc);
    }
    return firstInOrder(found, (a, b) => compareByKeys(a, b, order), query.limit).map((doc) => copy(doc) as D);
  }

  async count(collection: string, where?: Readonly<Record<string, FieldValue>>): Promise<number> {
    const matches = whereMatcher(where);
    let n = 0;
    for (const { doc } of this.collections.get(collection)?.values() ?? []) if (matches(doc)) n += 1;
    return n;
  }

  async ensureIndexes(): Promise<void> {}

  async loadCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.get(name) ?? null;
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    this.checkpoints.set(name, position);
  }

  async dropAll(): Promise<void> {
    this.collections = new Map();
    this.checkpoints = new Map();
  }

  async close(): Promise<void> {}

  private collection(name: string): Map<string, Entry> {
    let documents = this.collections.get(name);
    if (documents === undefined) {
      documents = new Map();
      this.collections.set(name, documents);
    }
    return documents;
  }
}
