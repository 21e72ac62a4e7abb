import type { EventStore, StreamName } from '../adapters/event-store/port';

interface CachedState {
  readonly revision: bigint;
  readonly state: unknown;
  /** the revision of the stream's latest snapshot, if it has one (stream-snapshots.ts) */
  readonly snapshotAt?: bigint | null;
}

const MAX_STREAMS = 10_000;

/**
 * The folded state of recently used streams, per store instance, so a command reads only the events
 * appended since (a team's ledger grows with every bot it ever made). Always completed from the store,
 * so appends by other processes are never missed.
 */
export class StreamStateCache {
  private readonly states = new Map<StreamName, CachedState>();

  get(stream: StreamName): CachedState | undefined {
    const cached = this.states.get(stream);
    if (cached) {
      // Map order is insertion order: moving an entry to the end keeps the least recently used first.
      this.states.delete(stream);
      this.states.set(stream, cached);
    }
    return cached;
  }

  /** Drops the states of the streams `matches` names: their events now read otherwise (a bot's data deleted). */
  forget(matches: (stream: StreamName) => boolean): void {
    for (const stream of [...this.states.keys()]) if (matches(stream)) this.states.delete(stream);
  }

  set(stream: StreamName, cached: CachedState): void {
    this.states.delete(stream);
    this.states.set(stream, cached);
    if (this.states.size > MAX_STREAMS) this.states.delete(this.states.keys().next().value!);
  }
}

const caches = new WeakMap<EventStore, StreamStateCache>();

export const stateCacheFor = (store: EventStore): StreamStateCache => {
  let cache = caches.get(store);
  if (!cache) {
    cache = new StreamStateCache();
    caches.set(store, cache);
  }
  return cache;
};
