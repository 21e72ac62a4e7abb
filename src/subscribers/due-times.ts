interface HeapEntry {
  readonly dueMs: number;
  readonly key: string;
  readonly seq: number;
}

/**
 * Keys with a due time, earliest first, and among equal times in the order they were set (bots due at
 * the same instant are queued in the order they were scheduled). A binary heap whose stale entries (a key
 * set again or removed) are skipped when they reach the top, so setting and removing cost O(log n).
 */
export class DueTimes {
  private readonly heap: HeapEntry[] = [];
  private readonly current = new Map<string, { readonly dueMs: number; readonly seq: number }>();
  private nextSeq = 0;

  get size(): number {
    return this.current.size;
  }

  has(key: string): boolean {
    return this.current.has(key);
  }

  dueOf(key: string): number | undefined {
    return this.current.get(key)?.dueMs;
  }

  set(key: string, dueMs: number): void {
    const seq = this.nextSeq++;
    const replaced = this.current.has(key);
    this.current.set(key, { dueMs, seq });
    this.push({ dueMs, key, seq });
    if (replaced && this.heap.length > 64 && this.heap.length > 2 * this.current.size) this.compact();
  }

  delete(key: string): void {
    this.current.delete(key);
    // Stale entries of far-off keys would wait for their time to be dropped: rebuild once they dominate.
    if (this.heap.length > 64 && this.heap.length > 2 * this.current.size) this.compact();
  }

  /** The earliest due time, without removing anything. */
  earliest(): number | undefined {
    this.dropStale();
    return this.heap[0]?.dueMs;
  }

  /**
   * Takes out the keys due at `nowMs`, earliest first, at most `limit`, except those `skip` excludes
   * (they stay, due as they were).
   */
  takeDue(nowMs: number, limit: number, skip: (key: string) => boolean): string[] {
    const taken: string[] = [];
    const skipped: HeapEntry[] = [];
    while (taken.length < limit) {
      this.dropStale();
      const top = this.heap[0];
      if (top === undefined || top.dueMs > nowMs) break;
      this.pop();
      if (skip(top.key)) {
        skipped.push(top);
      } else {
        this.current.delete(top.key);
        taken.push(top.key);
      }
    }
    for (const entry of skipped) this.push(entry);
    return taken;
  }

  private compact(): void {
    const live = this.heap.filter((entry) => this.isCurrent(entry));
    this.heap.length = 0;
    for (const entry of live) this.push(entry);
  }

  private isCurrent(entry: HeapEntry): boolean {
    return this.current.get(entry.key)?.seq === entry.seq;
  }

  private dropStale(): void {
    while (this.heap.length > 0 && !this.isCurrent(this.heap[0]!)) this.pop();
  }

  private static before(a: HeapEntry, b: HeapEntry): boolean {
    return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
  }

  private push(entry: HeapEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!DueTimes.before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && DueTimes.before(heap[right]!, heap[left]!) ? right : left;
      if (!DueTimes.before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }
}
