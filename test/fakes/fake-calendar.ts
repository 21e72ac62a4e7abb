/**
 * The calendar both provider fakes serve: one-off events and recurring series whose instances can be
 * moved or cancelled one by one, with a change counter (`seq`) that stamps every change, so that a sync
 * token or a delta token can name "everything after change n". The fakes render it in their provider's
 * shapes; tests script it (add, move, cancel, extend a series) and see the providers' push notices follow.
 */
export interface FakePerson {
  readonly email: string;
  readonly name?: string;
}

export interface EventInput {
  readonly summary: string;
  readonly start: Date | string | number;
  readonly end: Date | string | number;
  readonly attendees?: readonly FakePerson[];
  readonly organizer?: FakePerson;
  /** the provider's own conference link (Google Meet's hangoutLink, a Teams joinUrl) */
  readonly meetingUrl?: string;
  readonly location?: string;
  readonly description?: string;
}

export interface SeriesInput extends EventInput {
  readonly count: number;
  /** between two instances (default: a day) */
  readonly intervalMs?: number;
}

/** One listable item: a one-off event, or one instance of a series. */
export interface Occurrence {
  readonly id: string;
  readonly seriesId: string | null;
  readonly originalStartMs: number | null;
  readonly startMs: number;
  readonly endMs: number;
  readonly summary: string;
  readonly attendees: readonly FakePerson[];
  readonly organizer: FakePerson;
  readonly meetingUrl: string | null;
  readonly location: string | null;
  readonly description: string | null;
  readonly cancelled: boolean;
  /** the change that last touched it, and when */
  readonly updatedSeq: number;
  readonly updatedAtMs: number;
  readonly createdAtMs: number;
  /** moved or cancelled on its own, apart from its series */
  readonly exception: boolean;
}

interface InstanceOverride {
  readonly startMs?: number;
  readonly endMs?: number;
  readonly cancelled?: boolean;
  readonly seq: number;
  readonly atMs: number;
}

interface StoredEvent {
  readonly id: string;
  summary: string;
  startMs: number;
  endMs: number;
  attendees: readonly FakePerson[];
  organizer: FakePerson;
  meetingUrl: string | null;
  location: string | null;
  description: string | null;
  cancelled: boolean;
  seq: number;
  atMs: number;
  readonly createdAtMs: number;
  /** a series: how many instances, how far apart, and what happened to single ones */
  series: { count: number; readonly intervalMs: number; readonly overrides: Map<number, InstanceOverride>; readonly addedSeq: Map<number, number> } | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ms = (t: Date | string | number): number => (t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t));

/** `20260504T090000Z`: how Google names an instance after its series (`<series>_<original start>`). */
export const compactUtc = (epochMs: number): string => new Date(epochMs).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

let calendarsMade = 0;

export class FakeCalendar {
  private readonly events = new Map<string, StoredEvent>();
  private seqCounter = 0;
  private eventsMade = 0;
  private listeners: ((changedIds: readonly string[]) => void)[] = [];
  /** sync and delta tokens made before the latest `expireSyncTokens()` are refused */
  tokenGeneration = 0;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly owner: FakePerson,
    readonly primary: boolean,
    private readonly now: () => number,
  ) {
    calendarsMade += 1;
  }

  get seq(): number {
    return this.seqCounter;
  }

  onChange(listener: (changedIds: readonly string[]) => void): void {
    this.listeners.push(listener);
  }

  /** Sync tokens and delta links issued so far stop working (the providers then answer 410 Gone). */
  expireSyncTokens(): void {
    this.tokenGeneration += 1;
  }

  addEvent(input: EventInput): string {
    return this.store(input, null);
  }

  addSeries(input: SeriesInput): string {
    return this.store(input, { count: input.count, intervalMs: input.intervalMs ?? DAY_MS, overrides: new Map(), addedSeq: new Map() });
  }

  /** Moves a one-off event (instances of a series move one by one: their ids name their original start). */
  moveEvent(id: string, start: Date | string | number, end: Date | string | number): void {
    const event = this.get(id);
    if (event.series) throw new Error(`${id} is a series: move its instances`);
    event.startMs = ms(start);
    event.endMs = ms(end);
    this.touch(event);
  }

  renameEvent(id: string, summary: string): void {
    const event = this.get(id);
    event.summary = summary;
    this.touch(event);
  }

  /** Cancels a one-off event, or a whole series. */
  cancelEvent(id: string): void {
    const event = this.get(id);
    event.cancelled = true;
    this.touch(event);
  }

  /** Moves the n-th instance (0-based) of a series. */
  moveInstance(seriesId: string, index: number, start: Date | string | number, end: Date | string | number): string {
    return this.override(seriesId, index, { startMs: ms(start), endMs: ms(end) });
  }

  cancelInstance(seriesId: string, index: number): string {
    return this.override(seriesId, index, { cancelled: true });
  }

  /** The series gets more instances at its end (its rule grew a longer count). */
  extendSeries(seriesId: string, by = 1): string[] {
    const event = this.get(seriesId);
    if (!event.series) throw new Error(`${seriesId} is not a series`);
    const seq = this.nextSeq();
    const first = event.series.count;
    event.series.count += by;
    for (let i = first; i < event.series.count; i += 1) event.series.addedSeq.set(i, seq);
    const ids = Array.from({ length: by }, (_, k) => this.instanceId(event, first + k));
    this.notify(ids);
    return ids;
  }

  /** The id of the n-th instance of a series (`<series>_<original start>`). */
  instanceIdOf(seriesId: string, index: number): string {
    return this.instanceId(this.get(seriesId), index);
  }

  /** Every listable item: one-offs and expanded instances, cancelled ones included (incremental syncs list them). */
  occurrences(): Occurrence[] {
    const items: Occurrence[] = [];
    for (const event of this.events.values()) {
      const base = {
        summary: event.summary, attendees: event.attendees, organizer: event.organizer, meetingUrl: event.meetingUrl,
        location: event.location, description: event.description, createdAtMs: event.createdAtMs,
      };
      if (!event.series) {
        items.push({ ...base, id: event.id, seriesId: null, originalStartMs: null, startMs: event.startMs, endMs: event.endMs, cancelled: event.cancelled, updatedSeq: event.seq, updatedAtMs: event.atMs, exception: false });
        continue;
      }
      for (let i = 0; i < event.series.count; i += 1) {
        const originalStartMs = event.startMs + i * event.series.intervalMs;
        const override = event.series.overrides.get(i);
        const added = event.series.addedSeq.get(i) ?? 0;
        const seq = Math.max(event.seq, override?.seq ?? 0, added);
        items.push({
          ...base,
          id: this.instanceId(event, i),
          seriesId: event.id,
          originalStartMs,
          startMs: override?.startMs ?? originalStartMs,
          endMs: override?.endMs ?? originalStartMs + (event.endMs - event.startMs),
          cancelled: event.cancelled || override?.cancelled === true,
          updatedSeq: seq,
          updatedAtMs: seq === event.seq ? event.atMs : (override?.atMs ?? event.atMs),
          exception: override !== undefined,
        });
      }
    }
    return items;
  }

  private instanceId(event: StoredEvent, index: number): string {
    return `${event.id}_${compactUtc(event.startMs + index * event.series!.intervalMs)}`;
  }

  private override(seriesId: string, index: number, change: Omit<InstanceOverride, 'seq' | 'atMs'>): string {
    const event = this.get(seriesId);
    if (!event.series || index < 0 || index >= event.series.count) throw new Error(`${seriesId} has no instance ${index}`);
    const previous = event.series.overrides.get(index);
    event.series.overrides.set(index, { ...previous, ...change, seq: this.nextSeq(), atMs: this.now() });
    const id = this.instanceId(event, index);
    this.notify([id]);
    return id;
  }

  private store(input: EventInput, series: StoredEvent['series']): string {
    this.eventsMade += 1;
    // Google's event ids use the letters a-v and digits (base32hex), at least 5 of them. The counter is
    // padded on its own: padding the whole id made `c1e1` and `c1e10` the same id.
    const id = `c${calendarsMade.toString(32)}e${this.eventsMade.toString(32).padStart(5, '0')}`;
    const now = this.now();
    const event: StoredEvent = {
      id, summary: input.summary, startMs: ms(input.start), endMs: ms(input.end), attendees: input.attendees ?? [], organizer: input.organizer ?? this.owner,
      meetingUrl: input.meetingUrl ?? null, location: input.location ?? null, description: input.description ?? null, cancelled: false,
      seq: this.nextSeq(), atMs: now, createdAtMs: now, series,
    };
    this.events.set(id, event);
    this.notify([id]);
    return id;
  }

  private get(id: string): StoredEvent {
    const event = this.events.get(id);
    if (!event) throw new Error(`no event ${id} in calendar ${this.id}`);
    return event;
  }

  private touch(event: StoredEvent): void {
    event.seq = this.nextSeq();
    event.atMs = this.now();
    this.notify([event.id]);
  }

  private nextSeq(): number {
    this.seqCounter += 1;
    return this.seqCounter;
  }

  private notify(ids: readonly string[]): void {
    for (const listener of this.listeners) listener(ids);
  }
}

/** A page of items after a key, by a stable order: an item added or removed meanwhile never shifts the others. */
export const pageAfter = <T>(items: readonly T[], keyOf: (item: T) => string, after: string | null, size: number): { page: T[]; last: string | null; more: boolean } => {
  const sorted = [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const rest = after === null ? sorted : sorted.filter((item) => keyOf(item) > after);
  const page = rest.slice(0, size);
  return { page, last: page.length > 0 ? keyOf(page[page.length - 1]!) : after, more: rest.length > size };
};

/** Opaque tokens of the fakes: base64url JSON, as opaque to clients as the real ones. */
export const encodeToken = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
export const decodeToken = <T>(token: string): T | null => {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
};

/** Sortable keys: zero-padded numbers, then the id. */
export const sortKey = (...parts: (number | string)[]): string => parts.map((p) => (typeof p === 'number' ? String(p).padStart(16, '0') : p)).join('|');
