import { find, inOrder, insert, type Node, priorityOf, remove, sizeOf } from './treap';

interface Entry<V> {
  readonly value: V;
  /** when the key was first set: iteration gives keys in that order, as a Map does */
  readonly seq: number;
}

const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An immutable map of string keys: `set` and `delete` return a new map and copy O(log n) nodes, never the
 * whole map, so a state that holds thousands of entries (a team's open reservations) can change with every
 * event. Reads like a ReadonlyMap, in insertion order.
 */
export class PersistentMap<V> implements ReadonlyMap<string, V> {
  private constructor(
    private readonly root: Node<string, Entry<V>> | null,
    private readonly nextSeq: number,
  ) {}

  static empty<V>(): PersistentMap<V> {
    return new PersistentMap<V>(null, 0);
  }

  static of<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    let map = PersistentMap.empty<V>();
    for (const [key, value] of entries) map = map.set(key, value);
    return map;
  }

  get size(): number {
    return sizeOf(this.root);
  }

  get(key: string): V | undefined {
    return find(this.root, key, compareKeys)?.value.value;
  }

  has(key: string): boolean {
    return find(this.root, key, compareKeys) !== null;
  }

  set(key: string, value: V): PersistentMap<V> {
    const existing = find(this.root, key, compareKeys);
    const seq = existing?.value.seq ?? this.nextSeq;
    return new PersistentMap(insert(this.root, key, { value, seq }, priorityOf(key), compareKeys), existing ? this.nextSeq : this.nextSeq + 1);
  }

  delete(key: string): PersistentMap<V> {
    const root = remove(this.root, key, compareKeys);
    return root === this.root ? this : new PersistentMap(root, this.nextSeq);
  }

  *entries(): MapIterator<[string, V]> {
    const nodes = [...inOrder(this.root)].sort((a, b) => a.value.seq - b.value.seq);
    for (const node of nodes) yield [node.key, node.value.value];
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}
