import type { FieldValue, FindQuery, ReadDocument, SortKey } from './port';

/**
 * A read-store query compiled for the memory store: what a document must satisfy and how two documents
 * compare, built once per query because they run on every document of a collection. No function is
 * created per document: tsx (the service's runner) names every function it creates, at a cost that would
 * dominate such a scan.
 */

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

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

/**
 * Code point order, which is MongoDB's (UTF-8 byte) order. `<` compares UTF-16 units, which differs where
 * a surrogate (half of a character beyond U+FFFF) meets a unit above it (U+E000 to U+FFFF).
 */
const compareStrings = (a: string, b: string): number => {
  if (a === b) return 0;
  const length = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < length; i += 1) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && cb >= 0xd800 && isSurrogate(ca) !== isSurrogate(cb)) return isSurrogate(ca) ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
};

export const compareValues = (a: unknown, b: unknown): number => {
  // The common cases first: two values of one type.
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank;
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

type Getter = (doc: ReadDocument) => unknown;

const fieldOf = (value: unknown, segment: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;

/** Reads a field path (`a.b`: field b of the object in field a); undefined when it is not there. */
export const getterOf = (path: string): Getter => {
  if (!path.includes('.')) return (doc) => doc[path];
  const segments = path.split('.');
  if (segments.length === 2) {
    const [outer, inner] = segments as [string, string];
    return (doc) => fieldOf(doc[outer], inner);
  }
  return (doc) => {
    let value: unknown = doc;
    for (let i = 0; i < segments.length; i += 1) value = fieldOf(value, segments[i]!);
    return value;
  };
};

const isMissing = (value: unknown): boolean => value === null || value === undefined;

type Predicate = (doc: ReadDocument) => boolean;

/** Equality; `null` also matches a missing field, as in MongoDB. */
export const whereMatcher = (where: Readonly<Record<string, FieldValue>> | undefined): Predicate => {
  const conditions = Object.entries(where ?? {}).map(([field, value]) => ({ get: getterOf(field), value }));
  return (doc) => {
    for (const { get, value } of conditions) {
      const actual = get(doc);
      if (value === null ? !isMissing(actual) : actual !== value) return false;
    }
    return true;
  };
};

/** Like MongoDB's $gt, $gte and $lte: only values of the same type compare. */
const sameType = (actual: unknown, value: string | number): boolean => typeof actual === typeof value;

const containsText = (actual: unknown, text: string): boolean => {
  if (typeof actual === 'string') return actual.includes(text);
  if (!Array.isArray(actual)) return false;
  for (const item of actual) if (typeof item === 'string' && item.includes(text)) return true;
  return false;
};

const compareKey = (a: unknown, b: unknown, direction: SortKey['direction'], missingLast: boolean): number => {
  if (missingLast && isMissing(a) !== isMissing(b)) return isMissing(a) ? 1 : -1;
  const c = compareValues(a, b);
  return direction === 'asc' ? c : -c;
};

interface CompiledKey {
  readonly get: Getter;
  readonly direction: SortKey['direction'];
  readonly missingLast: boolean;
}

const compileKeys = (keys: readonly SortKey[]): CompiledKey[] =>
  keys.map((k) => ({ get: getterOf(k.field), direction: k.direction, missingLast: k.missing === 'last' }));

export interface CompiledQuery {
  /** every condition of the query holds, the cursor included */
  readonly matches: Predicate;
  /** the query's whole order, ties broken by id */
  readonly compare: (a: ReadDocument, b: ReadDocument) => number;
  /** names the order: two queries with the same key sort alike */
  readonly orderKey: string;
  /** the document comes after the cursor (false for every document before it in order, true from there on); null without a cursor */
  readonly afterCursor: Predicate | null;
}

export const compileQuery = (query: FindQuery): CompiledQuery => {
  const order = effectiveOrder(query.orderBy);
  checkStartAfter(query, order);
  const keys = compileKeys(order);
  const predicates: Predicate[] = [whereMatcher(query.where)];
  const gt = query.greaterThan;
  if (gt !== undefined) {
    const get = getterOf(gt.field);
    predicates.push((doc) => {
      const actual = get(doc);
      return sameType(actual, gt.value) && compareValues(actual, gt.value) > 0;
    });
  }
  for (const { field, gte, lte } of query.between ?? []) {
    const get = getterOf(field);
    predicates.push((doc) => {
      const actual = get(doc);
      if (gte !== undefined && !(sameType(actual, gte) && compareValues(actual, gte) >= 0)) return false;
      return lte === undefined || (sameType(actual, lte) && compareValues(actual, lte) <= 0);
    });
  }
  for (const { field, text } of query.contains ?? []) {
    const get = getterOf(field);
    predicates.push((doc) => containsText(get(doc), text));
  }
  const startAfter = query.startAfter;
  let afterCursor: Predicate | null = null;
  if (startAfter !== undefined) {
    // startAfter carries only the caller's keys: the implicit id tie-breaker is not part of the cursor.
    const cursorKeys = keys.slice(0, startAfter.length);
    afterCursor = (doc) => {
      for (let i = 0; i < cursorKeys.length; i += 1) {
        const { get, direction, missingLast } = cursorKeys[i]!;
        const c = compareKey(get(doc), startAfter[i], direction, missingLast);
        if (c !== 0) return c > 0;
      }
      return false;
    };
    predicates.push(afterCursor);
  }
  return {
    orderKey: JSON.stringify(order.map((k) => [k.field, k.direction, k.missing ?? null])),
    afterCursor,
    matches: (doc) => {
      for (let i = 0; i < predicates.length; i += 1) if (!predicates[i]!(doc)) return false;
      return true;
    },
    compare: (a, b) => {
      for (let i = 0; i < keys.length; i += 1) {
        const { get, direction, missingLast } = keys[i]!;
        const c = compareKey(get(a), get(b), direction, missingLast);
        if (c !== 0) return c;
      }
      return 0;
    },
  };
};

export interface Collector {
  offer(doc: ReadDocument): void;
  /** the documents offered, in order, at most `limit` of them */
  result(): ReadDocument[];
}

/**
 * Collects the first `limit` documents in order. A page is small and a collection large, so for a page
 * the documents are kept in a sorted array of at most `limit` (binary insertion) as they are offered,
 * instead of gathering and sorting them all.
 */
export const firstInOrder = (compare: (a: ReadDocument, b: ReadDocument) => number, limit: number | undefined): Collector => {
  if (limit === undefined) {
    const all: ReadDocument[] = [];
    return { offer: (doc) => void all.push(doc), result: () => all.sort(compare) };
  }
  const kept: ReadDocument[] = [];
  return {
    offer: (doc) => {
      if (limit <= 0 || (kept.length === limit && compare(doc, kept[limit - 1]!) >= 0)) return;
      let low = 0;
      let high = kept.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compare(kept[middle]!, doc) <= 0) low = middle + 1;
        else high = middle;
      }
      kept.splice(low, 0, doc);
      if (kept.length > limit) kept.pop();
    },
    result: () => kept,
  };
};
