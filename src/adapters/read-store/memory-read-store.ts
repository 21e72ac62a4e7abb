import { compileQuery, firstInOrder, whereMatcher, type CompiledQuery } from './memory-query';
import { firstWhere, OrderedGroup, type Entry } from './memory-ordered-index';
import type { FieldValue, FindQuery, ReadDocument, ReadStore, SortKey, StoredDocument } from './port';

/** Undefined top-level fields are dropped, as the MongoDB implementation drops them. */
const copy = <D extends ReadDocument>(doc: D): D => {
  const clone = structuredClone(doc) as Record<string, unknown>;
  for (const key of Object.keys(clone)) if (clone[key] === undefined) delete clone[key];
  return clone as D;
};

type Partitionable = string | number | boolean;
const isPartitionable = (value: unknown): value is Partitionable => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * The documents of a collection grouped by the value of one top-level field (the first field of an index
 * declared for it, such as `team_id`): a query with equality on that field reads only its group.
 */
class Partition {
  readonly groups = new Map<Partitionable, Map<string, Entry>>();
  constructor(readonly field: string) {}

  place(id: string, previous: Entry | undefined, next: Entry): void {
    const before = previous?.doc[this.field];
    const after = next.doc[this.field];
    if (isPartitionable(before) && before !== after) this.groups.get(before)?.delete(id);
    if (!isPartitionable(after)) return;
    let group = this.groups.get(after);
    if (group === undefined) {
      group = new Map();
      this.groups.set(after, group);
    }
    group.set(id, next);
  }
}

/** One query order within a partition: its groups in that order, each built the first time it is read. */
class PartitionOrder {
  readonly groups = new Map<Partitionable, OrderedGroup>();
  usedAt = 0;
  constructor(
    readonly partition: Partition,
    readonly compare: CompiledQuery['compare'],
  ) {}

  group(value: Partitionable): OrderedGroup {
    let group = this.groups.get(value);
    if (group === undefined) {
      group = new OrderedGroup([...(this.partition.groups.get(value)?.values() ?? [])], this.compare);
      this.groups.set(value, group);
    }
    return group;
  }

  place(previous: Entry | undefined, next: Entry): void {
    const before = previous?.doc[this.partition.field];
    const after = next.doc[this.partition.field];
    const from = isPartitionable(before) ? this.groups.get(before) : undefined;
    const to = isPartitionable(after) ? this.groups.get(after) : undefined;
    if (previous !== undefined && from !== undefined && from === to) return from.replace(previous, next);
    if (previous !== undefined) from?.remove(previous);
    to?.insert(next);
  }
}

/** Orders kept per collection at most; the one used longest ago goes first. */
const MAX_ORDERS = 8;

interface Collection {
  readonly documents: Map<string, Entry>;
  readonly partitions: Map<string, Partition>;
  readonly orders: Map<string, PartitionOrder>;
}

/**
 * The embedded read store: plain maps, rebuilt from the event log at every start. Documents are copied
 * in and out so that callers can never change a stored document behind the store's back.
 *
 * Declared indexes group documents by their first field (the team). A page (a query with a limit) of one
 * group is read in its order from a sorted copy of the group, kept for each order queries use, from where
 * its cursor points until it has its documents: a page of a team's list costs about its size, not the
 * team's size, unless few documents match.
 */
export class MemoryReadStore implements ReadStore {
  private collections = new Map<string, Collection>();
  private checkpoints = new Map<string, bigint>();
  private uses = 0;

  async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    const { documents, partitions, orders } = this.collection(collection);
    const stored = documents.get(doc.id);
    if (stored !== undefined && stored.position >= position) return false;
    const entry = { doc: copy(doc), position };
    documents.set(doc.id, entry);
    for (const partition of partitions.values()) partition.place(doc.id, stored, entry);
    for (const order of orders.values()) order.place(stored, entry);
    return true;
  }

  async get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const stored = this.collections.get(collection)?.documents.get(id);
    return stored === undefined ? null : { doc: copy(stored.doc) as D, position: stored.position };
  }

  async find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]> {
    const compiled = compileQuery(query);
    const stored = this.collections.get(collection);
    if (stored === undefined) return [];
    const page = this.pageOfGroup(stored, query, compiled);
    if (page !== null) return page.map((doc) => copy(doc) as D);
    const collector = firstInOrder(compiled.compare, query.limit);
    for (const { doc } of this.candidates(stored, query.where)) if (compiled.matches(doc)) collector.offer(doc);
    return collector.result().map((doc) => copy(doc) as D);
  }

  async count(collection: string, where?: Readonly<Record<string, FieldValue>>): Promise<number> {
    const stored = this.collections.get(collection);
    if (stored === undefined) return 0;
    const matches = whereMatcher(where);
    let n = 0;
    for (const { doc } of this.candidates(stored, where)) if (matches(doc)) n += 1;
    return n;
  }

  async ensureIndexes(collection: string, indexes: readonly (readonly SortKey[])[]): Promise<void> {
    const { documents, partitions } = this.collection(collection);
    for (const [first] of indexes) {
      if (first === undefined || first.field.includes('.') || partitions.has(first.field)) continue;
      const partition = new Partition(first.field);
      for (const [id, entry] of documents) partition.place(id, undefined, entry);
      partitions.set(first.field, partition);
    }
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.get(name) ?? null;
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    // Only forward, as in every store: a late writer of an older position must not put it back.
    const saved = this.checkpoints.get(name);
    if (saved === undefined || position > saved) this.checkpoints.set(name, position);
  }

  /** No transactions: each write is guarded by position, and a projection saves its checkpoint last. */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async dropAll(): Promise<void> {
    this.collections = new Map();
    this.checkpoints = new Map();
  }

  async close(): Promise<void> {}

  /** The partition a query reads one group of (equality on its field), with that group's value. */
  private partitionOf(stored: Collection, where: FindQuery['where']): { partition: Partition; value: Partitionable } | null {
    for (const [field, partition] of stored.partitions) {
      const value = where?.[field];
      if (isPartitionable(value)) return { partition, value };
    }
    return null;
  }

  /** A page of one group read in order from its sorted copy; null when the query is not such a page. */
  private pageOfGroup(stored: Collection, query: FindQuery, compiled: CompiledQuery): ReadDocument[] | null {
    const limit = query.limit;
    const target = this.partitionOf(stored, query.where);
    if (target === null || limit === undefined) return null;
    if (limit <= 0) return [];
    const key = `${target.partition.field}\u0000${compiled.orderKey}`;
    let order = stored.orders.get(key);
    if (order === undefined) {
      if (stored.orders.size >= MAX_ORDERS) {
        const [oldest] = [...stored.orders].sort(([, a], [, b]) => a.usedAt - b.usedAt);
        if (oldest) stored.orders.delete(oldest[0]);
      }
      order = new PartitionOrder(target.partition, compiled.compare);
      stored.orders.set(key, order);
    }
    order.usedAt = ++this.uses;
    const sorted = order.group(target.value).sorted;
    const page: ReadDocument[] = [];
    for (let i = compiled.afterCursor ? firstWhere(sorted, compiled.afterCursor) : 0; i < sorted.length && page.length < limit; i += 1) {
      const { doc } = sorted[i]!;
      if (compiled.matches(doc)) page.push(doc);
    }
    return page;
  }

  /** The documents a query has to look at: one group when it asks for equality on a partitioned field. */
  private candidates(stored: Collection, where: FindQuery['where']): Iterable<Entry> {
    const target = this.partitionOf(stored, where);
    if (target === null) return stored.documents.values();
    return target.partition.groups.get(target.value)?.values() ?? [];
  }

  private collection(name: string): Collection {
    let stored = this.collections.get(name);
    if (stored === undefined) {
      stored = { documents: new Map(), partitions: new Map(), orders: new Map() };
      this.collections.set(name, stored);
    }
    return stored;
  }
}
