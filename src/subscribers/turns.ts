/**
 * Whose turn it is among teams with work waiting: the one served longest ago (one never served first,
 * then the one that has waited longest). A team that was just served, and whose next piece of work comes
 * in before another team's, still goes after that team. Remembers one number per team ever served.
 */
export class Turns<K> {
  private count = 0;
  private readonly lastServed = new Map<K, number>();

  /**
   * Among `waiting` (in the order they came), the one whose turn it is and that `startable` accepts (its
   * answer says what it can start); null when none can start now.
   */
  next<V, R>(waiting: Iterable<readonly [K, V]>, startable: (key: K, value: V) => R | null): { readonly key: K; readonly start: R } | null {
    let best: { key: K; start: R; served: number } | null = null;
    for (const [key, value] of waiting) {
      const served = this.lastServed.get(key) ?? -1;
      if (best !== null && served >= best.served) continue;
      const start = startable(key, value);
      if (start !== null) best = { key, start, served };
    }
    return best && { key: best.key, start: best.start };
  }

  /** `key` was served now: it goes after every other. */
  served(key: K): void {
    this.count += 1;
    this.lastServed.set(key, this.count);
  }
}
