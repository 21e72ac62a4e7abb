interface Entry {
  readonly botId: string;
  readonly dueMs: number;
  readonly seq: number;
}

const before = (a: Entry, b: { readonly dueMs: number; readonly seq: number }): boolean =>
  a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);

/** How many of a team's next bots the start time looks at: a burst larger than this starts a little late. */
const START_HORIZON = 5000;

/**
 * One team's scheduled bots in the order they are queued: by due time, then in the order they were set
 * (bots due at the same instant go in the order they were scheduled). A sorted array: a team's bots
 * mostly arrive in time order, so inserting is usually appending.
 */
export class TeamSchedule {
  private readonly entries: Entry[] = [];
  private readonly byBot = new Map<string, Entry>();
  private nextSeq = 0;

  get size(): number {
    return this.entries.length;
  }

  has(botId: string): boolean {
    return this.byBot.has(botId);
  }

  set(botId: string, dueMs: number): void {
    this.delete(botId);
    const entry: Entry = { botId, dueMs, seq: this.nextSeq++ };
    this.entries.splice(this.indexOf(entry), 0, entry);
    this.byBot.set(botId, entry);
  }

  delete(botId: string): void {
    const entry = this.byBot.get(botId);
    if (entry === undefined) return;
    this.byBot.delete(botId);
    this.entries.splice(this.indexOf(entry), 1);
  }

  /** The next bot and its due time, left in place. */
  head(): { readonly botId: string; readonly dueMs: number } | undefined {
    return this.entries[0];
  }

  /** Takes out the next bot. */
  takeHead(): string | undefined {
    const entry = this.entries.shift();
    if (entry !== undefined) this.byBot.delete(entry.botId);
    return entry?.botId;
  }

  /**
   * When to start the next bot so that, queued one after another at `perBotMs` each, every bot is queued
   * by its due time: the earliest of (due time of the j-th bot - j * perBotMs). A thousand bots due at the
   * same instant start a thousand queueings early; a lone bot starts one queueing early.
   */
  startTime(perBotMs: number): number | undefined {
    let start: number | undefined;
    const n = Math.min(this.entries.length, START_HORIZON);
    for (let j = 0; j < n; j++) {
      const latest = this.entries[j]!.dueMs - (j + 1) * perBotMs;
      if (start === undefined || latest < start) start = latest;
    }
    return start;
  }

  /** The position where `entry` is, or where it belongs (binary search on due time, then order of setting). */
  private indexOf(entry: { readonly dueMs: number; readonly seq: number }): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (before(this.entries[mid]!, entry)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
