import { PersistentMap } from './persistent-map';
import { countFrom, dropBefore, firstFrom, inOrder, insert, type Node, priorityOf, remove, sizeOf } from './treap';

/** Something that happened to a bot at a time (milliseconds). */
export interface Timed {
  readonly bot_id: string;
  readonly at_ms: number;
}

const compareTimed = (a: Timed, b: Timed): number => a.at_ms - b.at_ms || (a.bot_id < b.bot_id ? -1 : a.bot_id > b.bot_id ? 1 : 0);

/**
 * The bots of a recent window (a team's creations of the last 24 h, a meeting's registrations of the last
 * 5 minutes), ordered by time and found by bot id, immutable: adding, removing and forgetting the oldest
 * cost O(log n), and so do counting those after a time and finding the first of them. A busy team's day
 * holds thousands, and every creation changes it.
 */
export class TimeWindow<T extends Timed> implements Iterable<T> {
  private constructor(
    private readonly byTime: Node<T, T> | null,
    private readonly byBot: PersistentMap<T>,
  ) {}

  static empty<T extends Timed>(): TimeWindow<T> {
    return new TimeWindow<T>(null, PersistentMap.empty<T>());
  }

  static of<T extends Timed>(items: Iterable<T>): TimeWindow<T> {
    let window = TimeWindow.empty<T>();
    for (const item of items) window = window.add(item);
    return window;
  }

  get length(): number {
    return sizeOf(this.byTime);
  }

  has(botId: string): boolean {
    return this.byBot.has(botId);
  }

  get(botId: string): T | undefined {
    return this.byBot.get(botId);
  }

  /** With `item` in its place in time (replacing the bot's earlier item, if any). */
  add(item: T): TimeWindow<T> {
    const earlier = this.byBot.get(item.bot_id);
    const byTime = earlier === undefined ? this.byTime : remove(this.byTime, earlier, compareTimed);
    return new TimeWindow(insert(byTime, item, item, priorityOf(item.bot_id), compareTimed), this.byBot.set(item.bot_id, item));
  }

  remove(botId: string): TimeWindow<T> {
    const item = this.byBot.get(botId);
    if (item === undefined) return this;
    return new TimeWindow(remove(this.byTime, item, compareTimed), this.byBot.delete(botId));
  }

  /** Without the items at or before `ms`: the window's end moved on. */
  forgetUpTo(ms: number): TimeWindow<T> {
    const isAfter = (item: T) => item.at_ms > ms;
    const kept = dropBefore(this.byTime, isAfter);
    if (kept === this.byTime) return this;
    let byBot = this.byBot;
    for (const { value } of inOrder(this.byTime)) {
      if (isAfter(value)) break;
      byBot = byBot.delete(value.bot_id);
    }
    return new TimeWindow(kept, byBot);
  }

  /** How many items are after `ms`. */
  countAfter(ms: number): number {
    return countFrom(this.byTime, (item) => item.at_ms > ms);
  }

  /** The oldest item after `ms`. */
  firstAfter(ms: number): T | undefined {
    return firstFrom(this.byTime, (item: T) => item.at_ms > ms)?.value;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const { value } of inOrder(this.byTime)) yield value;
  }
}
