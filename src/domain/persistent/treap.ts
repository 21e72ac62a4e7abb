/**
 * A persistent treap: a binary search tree whose nodes are never changed once made, so that every version
 * of a state stays as it was (the domain's `evolve` is pure) while a change copies only the path to the
 * node it touches, O(log n), instead of the whole collection. Priorities come from the keys (a hash), not
 * from chance, so the same keys always make the same tree.
 */
export interface Node<K, V> {
  readonly key: K;
  readonly value: V;
  readonly priority: number;
  readonly left: Node<K, V> | null;
  readonly right: Node<K, V> | null;
  readonly size: number;
}

export type Compare<K> = (a: K, b: K) => number;

export const sizeOf = (node: Node<unknown, unknown> | null): number => (node === null ? 0 : node.size);

const make = <K, V>(key: K, value: V, priority: number, left: Node<K, V> | null, right: Node<K, V> | null): Node<K, V> => ({
  key,
  value,
  priority,
  left,
  right,
  size: sizeOf(left) + sizeOf(right) + 1,
});

/** FNV-1a over the UTF-16 units: a well-spread 32-bit priority for a string. */
export const priorityOf = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** The tree with `key` set to `value` (inserted, or its value replaced). */
export const insert = <K, V>(node: Node<K, V> | null, key: K, value: V, priority: number, compare: Compare<K>): Node<K, V> => {
  if (node === null) return make(key, value, priority, null, null);
  const c = compare(key, node.key);
  if (c === 0) return make(key, value, node.priority, node.left, node.right);
  if (c < 0) {
    const left = insert(node.left, key, value, priority, compare);
    // The new node rises above its parent while its priority is higher (a right rotation).
    return left.priority > node.priority ? make(left.key, left.value, left.priority, left.left, make(node.key, node.value, node.priority, left.right, node.right)) : make(node.key, node.value, node.priority, left, node.right);
  }
  const right = insert(node.right, key, value, priority, compare);
  return right.priority > node.priority ? make(right.key, right.value, right.priority, make(node.key, node.value, node.priority, node.left, right.left), right.right) : make(node.key, node.value, node.priority, node.left, right);
};

/** Joins two trees whose keys are all smaller in `low` than in `high`. */
const join = <K, V>(low: Node<K, V> | null, high: Node<K, V> | null): Node<K, V> | null => {
  if (low === null) return high;
  if (high === null) return low;
  return low.priority > high.priority ? make(low.key, low.value, low.priority, low.left, join(low.right, high)) : make(high.key, high.value, high.priority, join(low, high.left), high.right);
};

/** The tree without `key` (the same tree when it is not there). */
export const remove = <K, V>(node: Node<K, V> | null, key: K, compare: Compare<K>): Node<K, V> | null => {
  if (node === null) return null;
  const c = compare(key, node.key);
  if (c === 0) return join(node.left, node.right);
  if (c < 0) {
    const left = remove(node.left, key, compare);
    return left === node.left ? node : make(node.key, node.value, node.priority, left, node.right);
  }
  const right = remove(node.right, key, compare);
  return right === node.right ? node : make(node.key, node.value, node.priority, node.left, right);
};

export const find = <K, V>(node: Node<K, V> | null, key: K, compare: Compare<K>): Node<K, V> | null => {
  let at = node;
  while (at !== null) {
    const c = compare(key, at.key);
    if (c === 0) return at;
    at = c < 0 ? at.left : at.right;
  }
  return null;
};

/** The nodes whose key `isAfter` holds (false up to some point in the order, true from there on). */
export const dropBefore = <K, V>(node: Node<K, V> | null, isAfter: (key: K) => boolean): Node<K, V> | null => {
  if (node === null) return null;
  if (!isAfter(node.key)) return dropBefore(node.right, isAfter);
  const left = dropBefore(node.left, isAfter);
  return left === node.left ? node : make(node.key, node.value, node.priority, left, node.right);
};

/** How many keys `isAfter` holds for (a predicate false up to some point in the order, true from there on). */
export const countFrom = <K>(node: Node<K, unknown> | null, isAfter: (key: K) => boolean): number => {
  let count = 0;
  let at = node;
  while (at !== null) {
    if (isAfter(at.key)) {
      count += sizeOf(at.right) + 1;
      at = at.left;
    } else at = at.right;
  }
  return count;
};

/** The first node in order whose key `isAfter` holds; null when none does. */
export const firstFrom = <K, V>(node: Node<K, V> | null, isAfter: (key: K) => boolean): Node<K, V> | null => {
  let found: Node<K, V> | null = null;
  let at = node;
  while (at !== null) {
    if (isAfter(at.key)) {
      found = at;
      at = at.left;
    } else at = at.right;
  }
  return found;
};

/** Every node in key order. */
export function* inOrder<K, V>(node: Node<K, V> | null): Generator<Node<K, V>> {
  const stack: Node<K, V>[] = [];
  let at = node;
  while (at !== null || stack.length > 0) {
    while (at !== null) {
      stack.push(at);
      at = at.left;
    }
    const next = stack.pop()!;
    yield next;
    at = next.right;
  }
}
