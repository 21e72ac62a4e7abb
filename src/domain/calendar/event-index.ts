/**
 * What a calendar's decider remembers of each event it has seen, keyed by the provider's event id.
 * Immutable, but a change copies only one of 64 buckets (not every entry), so folding a calendar's
 * thousands of events one by one stays linear.
 */
export interface KnownEvent {
  readonly event_id: string;
  readonly fingerprint: string;
  readonly cancelled: boolean;
  readonly start_time: string;
  /** what a cancellation says about it (its webhook names the event and its series) */
  readonly series_id: string | null;
  readonly name: string;
}

const BUCKETS = 64;

/** FNV-1a over the UTF-16 units: a stable spread of ids over the buckets, nothing more. */
const bucketOf = (key: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % BUCKETS;
};

export class EventIndex {
  private constructor(
    private readonly buckets: readonly ReadonlyMap<string, KnownEvent>[],
    readonly size: number,
  ) {}

  static empty(): EventIndex {
    return new EventIndex(Array.from({ length: BUCKETS }, () => new Map<string, KnownEvent>()), 0);
  }

  get(providerEventId: string): KnownEvent | undefined {
    return this.buckets[bucketOf(providerEventId)]!.get(providerEventId);
  }

  set(providerEventId: string, known: KnownEvent): EventIndex {
    const index = bucketOf(providerEventId);
    const bucket = new Map(this.buckets[index]!);
    const grows = !bucket.has(providerEventId);
    bucket.set(providerEventId, known);
    const buckets = [...this.buckets];
    buckets[index] = bucket;
    return new EventIndex(buckets, this.size + (grows ? 1 : 0));
  }

  *entries(): IterableIterator<[string, KnownEvent]> {
    for (const bucket of this.buckets) yield* bucket;
  }
}
