/** Whose a delivery stream is and where it goes: what its attempts are counted against. */
export interface StreamRoute {
  readonly teamId: string;
  readonly targetKey: string;
}

/**
 * Which delivery streams are due when, for the delivery worker: a binary heap by due time, so that finding
 * what is due costs log(n) however many streams wait for a retry hours away. A stream has one due time;
 * setting it again replaces the old one (the stale heap entry is skipped when it comes up).
 */
export class DueStreams {
  private readonly due = new Map<string, { readonly dueMs: number } & StreamRoute>();
  private readonly heap: { readonly stream: string; readonly dueMs: number }[] = [];

  get size(): number {
    return this.due.size;
  }

  set(stream: string, dueMs: number, route: StreamRoute): void {
    const current = this.due.get(stream);
    if (current && current.dueMs === dueMs) return;
    this.due.set(stream, { dueMs, ...route });
    this.push({ stream, dueMs });
  }

  delete(stream: string): void {
    this.due.delete(stream);
  }

  streamsOf(targetKey: string): string[] {
    return [...this.due].filter(([, d]) => d.targetKey === targetKey).map(([stream]) => stream);
  }

  /** Takes the stream due soonest if it is due at `nowMs` (it leaves the set); null when none is. */
  takeDue(nowMs: number): ({ readonly stream: string } & StreamRoute) | null {
    while (this.heap.length > 0) {
      const top = this.heap[0]!;
      const current = this.due.get(top.stream);
      if (!current || current.dueMs !== top.dueMs) {
        this.pop();
        continue;
      }
      if (top.dueMs > nowMs) return null;
      this.pop();
      this.due.delete(top.stream);
      return { stream: top.stream, teamId: current.teamId, targetKey: current.targetKey };
    }
    return null;
  }

  private push(entry: { stream: string; dueMs: number }): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.dueMs <= heap[i]!.dueMs) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && heap[left]!.dueMs < heap[smallest]!.dueMs) smallest = left;
      if (right < heap.length && heap[right]!.dueMs < heap[smallest]!.dueMs) smallest = right;
      if (smallest === i) return;
      [heap[smallest], heap[i]] = [heap[i]!, heap[smallest]!];
      i = smallest;
    }
  }
}
