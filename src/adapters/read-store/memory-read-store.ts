import { compileQuery, firstInOrder, whereMatcher } from './memory-query';
import type { FieldValue, FindQuery, ReadDocument, ReadStore, SortKey, StoredDocument } from './port';

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

interface Collection {
  readonly documents: Map<string, Entry>;
  readonly partitions: Map<string, Partition>;
}

/**
 * The embedded read store: plain maps, rebuilt from the event log at every start. Documents are copied
 * in and out so that callers can never change a stored document behind the store's back. Declared
 * indexes group documents by their first field, so that one team's query does not read every team's.
 */
export class MemoryReadStore implements ReadStore {
  private collections = new Map<string, Collection>();
  private checkpoints = new Map<string, bigint>();

  async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    const { documents, partitions } = this.collection(collection);
    const stored = documents.get(doc.id);
    if (stored !== undefined && stored.position >= position) return false;
    const entry = { doc: copy(doc), position };
    documents.set(doc.id, entry);
    for (const partition of partitions.values()) partition.place(doc.id, stored, entry);
    return true;
  }

  async get<D extends ReadDocument>(collection: string, id: string): Promise<StoredDocument<D> | null> {
    const stored = this.collections.get(collection)?.documents.get(id);
    return stored === undefined ? null : { doc: copy(stored.doc) as D, position: stored.position };
  }

  async find<D extends ReadDocument>(collection: string, query: FindQuery): Promise<readonly D[]> {
    const { matches, compare } = compileQuery(query);
    const collector = firstInOrder(compare, query.limit);
    for (const { doc } of this.candidates(collection, query.where)) if (matches(doc)) collector.offer(doc);
    return collector.result().map((doc) => copy(doc) as D);
  }

  async count(collection: string, where?: Readonly<Record<string, FieldValue>>): Promise<number> {
    const matches = whereMatcher(where);
    let n = 0;
    for (const { doc } of this.candidates(collection, where)) if (matches(doc)) n += 1;
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
    this.checkpoints.set(name, position);
  }

  async dropAll(): Promise<void> {
    this.collections = new Map();
    this.checkpoints = new Map();
  }

  async close(): Promise<void> {}

  /** The documents a query has to look at: one group when it asks for equality on a partitioned field. */
  private candidates(collection: string, where: Readonly<Record<string, FieldValue>> | undefined): Iterable<Entry> {
    const stored = this.collections.get(collection);
    if (stored === undefined) return [];
    for (const [field, partition] of stored.partitions) {
      const value = where?.[field];
      if (isPartitionable(value)) return partition.groups.get(value)?.values() ?? [];
    }
    return stored.documents.values();
  }

  private collection(name: string): Collection {
    let stored = this.collections.get(name);
    if (stored === undefined) {
      stored = { documents: new Map(), partitions: new Map() };
      this.collections.set(name, stored);
    }
    return stored;
  }
}
