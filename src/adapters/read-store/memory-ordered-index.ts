import type { ReadDocument } from './port';

export interface Entry {
  readonly doc: ReadDocument;
  readonly position: bigint;
}

type Compare = (a: ReadDocument, b: ReadDocument) => number;

/** The first index of `entries` (sorted by `compare`) whose document does not sort before `doc`. */
const lowerBound = (entries: readonly Entry[], doc: ReadDocument, compare: Compare): number => {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(entries[middle]!.doc, doc) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
};

/** The first index from which `after` holds, for a predicate that is false up to some point and true after. */
export const firstWhere = (entries: readonly Entry[], after: (doc: ReadDocument) => boolean): number => {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (after(entries[middle]!.doc)) high = middle;
    else low = middle + 1;
  }
  return low;
};

/**
 * One group's documents (a team's bots) kept in one query order, so that a page is read from where its
 * cursor points and stops after `limit` matches, instead of reading the whole group. Built the first time
 * a query asks for that order, kept up to date by every write after that. The order ends with the id, so
 * every document has exactly one place.
 */
export class OrderedGroup {
  constructor(
    private readonly entries: Entry[],
    private readonly compare: Compare,
  ) {
    entries.sort((a, b) => compare(a.doc, b.doc));
  }

  get sorted(): readonly Entry[] {
    return this.entries;
  }

  /** A document's new version: moved only when its place in the order changed. */
  replace(previous: Entry, next: Entry): void {
    const at = this.indexOf(previous);
    if (this.compare(previous.doc, next.doc) === 0) {
      this.entries[at] = next;
      return;
    }
    this.entries.splice(at, 1);
    this.insert(next);
  }

  insert(entry: Entry): void {
    this.entries.splice(lowerBound(this.entries, entry.doc, this.compare), 0, entry);
  }

  remove(entry: Entry): void {
    this.entries.splice(this.indexOf(entry), 1);
  }

  private indexOf(entry: Entry): number {
    const at = lowerBound(this.entries, entry.doc, this.compare);
    if (this.entries[at]?.doc.id === entry.doc.id) return at;
    throw new Error(`document ${entry.doc.id} is not where its order puts it`);
  }
}
