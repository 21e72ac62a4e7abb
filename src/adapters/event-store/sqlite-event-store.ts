import Database from 'better-sqlite3';
import { openSqliteFile } from '../disk/sqlite-file';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamName,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';
import { PollingSubscriptions } from './polling-subscription';
import { WalSync } from './wal-sync';

/** Another process appending to the same file cannot wake us: how long a subscription waits before it looks again. */
const POLL_INTERVAL_MS = 200;
const SUBSCRIPTION_BATCH = 500;
/** SQLite's largest rowid: no position is beyond it. */
const MAX_POSITION = 2n ** 63n - 1n;
/** Recently read events kept parsed: every subscription reads each new event, and parsing it once is enough. */
const PARSED_CACHE_SIZE = 4 * SUBSCRIPTION_BATCH;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    stream      TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream, revision)
  )`;

interface EventRow {
  readonly position: bigint;
  readonly id: string;
  readonly stream: string;
  readonly revision: bigint;
  readonly type: string;
  readonly data: string;
  readonly recorded_at: string;
}

interface QueuedAppend {
  readonly stream: StreamName;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/** What an append wrote: its answer, and its events as readers will see them. */
interface Inserted {
  readonly result: AppendResult;
  readonly recorded: readonly RecordedEvent[];
}

type Outcome = { readonly inserted: Inserted } | { readonly refused: Error };

/** Frozen all the way down: one parsed event is handed to every reader, so none may change it for the others. */
const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

const toRecorded = (row: EventRow): RecordedEvent =>
  Object.freeze({
    id: row.id,
    streamName: row.stream,
    type: row.type,
    data: deepFreeze(JSON.parse(row.data) as Record<string, unknown>),
    revision: row.revision,
    position: row.position,
    recordedAt: new Date(row.recorded_at),
  });

const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY');

const matches = (expected: ExpectedRevision, actual: bigint | 'no_stream'): boolean =>
  expected === 'any' || expected === actual;

/** The embedded event store: one SQLite file, one table, the rowid as global position. */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly subscriptions = new PollingSubscriptions({
    read: (after, maxCount) => this.readAfter(after, maxCount),
    batchSize: SUBSCRIPTION_BATCH,
    pollIntervalMs: POLL_INTERVAL_MS,
  });
  /**
   * By position, which never changes meaning: the subscriptions read the same new events one after the
   * other, and parsing each event's JSON once instead of once per subscription was most of their cost (a
   * calendar's first sync appends thousands of events with their provider records). Each RecordedEvent is
   * frozen, so one object can be handed to all of them.
   */
  private readonly parsed = new Map<bigint, RecordedEvent>();
  private readonly statements;
  /** One append, inside the group's transaction: a savepoint, so a conflict undoes only its own rows. */
  private readonly appendOne;
  /** Every append of a group in one IMMEDIATE transaction: one commit, one sync to disk. */
  private readonly groupTransaction;
  /** Appends waiting for the next group commit, in call order. */
  private waiting: QueuedAppend[] = [];
  private readonly walSync: WalSync;
  /**
   * The first position of each group committed but not yet on disk, oldest first: readers of the log see
   * nothing from the oldest on, so that no subscriber acts on an event a power cut could still take back.
   */
  private readonly unsynced: bigint[] = [];

  constructor(path: string) {
    // Commits write the log; WalSync syncs it beside the event loop, and appends answer only after that.
    this.db = openSqliteFile(path, 'NORMAL');
    this.walSync = new WalSync(`${path}-wal`);
    this.db.exec(SCHEMA);

    const prepare = (sql: string) => this.db.prepare(sql).safeIntegers(true);
    this.statements = {
      currentRevision: prepare('SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
      byId: prepare('SELECT * FROM events WHERE id = ?'),
      streamRange: prepare('SELECT * FROM events WHERE stream = ? AND revision BETWEEN ? AND ? ORDER BY revision'),
      insert: prepare('INSERT INTO events (id, stream, revision, type, data, recorded_at) VALUES (?, ?, ?, ?, ?, ?)'),
      readStream: prepare('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision'),
      readAll: prepare('SELECT * FROM events WHERE position > ? AND position < ? ORDER BY position LIMIT ?'),
    };
    this.appendOne = this.db.transaction(
      (append: QueuedAppend): Inserted => this.retriedAppend(append) ?? this.insertEvents(append),
    );
    this.groupTransaction = this.db.transaction((group: readonly QueuedAppend[]): Outcome[] =>
      group.map((append) => {
        try {
          return { inserted: this.appendOne(append) };
        } catch (error) {
          return { refused: this.refusalOf(append, error) };
        }
      }),
    );
  }

  /**
   * Group commit: appends made while the event loop runs (the concurrent requests of one turn) wait for
   * the next turn and are written together, in call order, in one transaction synced once (WalSync, off
   * the event loop). Each append is still decided on its own (its own savepoint): a conflict refuses that
   * append alone, and its caller learns it; the others commit. Nobody hears of success, and no subscriber
   * sees the events, before the commit is on disk.
   */
  appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error(`appendToStream(${stream}): no events to append`));
    return new Promise((resolve, reject) => {
      this.waiting.push({ stream, events, expected, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => this.commitGroup());
    });
  }

  private commitGroup(): void {
    const group = this.waiting;
    this.waiting = [];
    if (group.length === 0) return;
    let outcomes: Outcome[];
    try {
      // IMMEDIATE takes the write lock before the revision checks, so another process cannot slip in between.
      outcomes = this.groupTransaction.immediate(group);
    } catch (error) {
      // The commit itself failed (disk full, the file locked too long): nothing of the group was written.
      for (const append of group) append.reject(error);
      return;
    }
    const written = outcomes.flatMap((outcome) => ('inserted' in outcome ? outcome.inserted.recorded : []));
    if (written.length > 0) this.unsynced.push(written[0]!.position);
    this.walSync.afterCommit((syncError) => {
      if (written.length > 0) this.unsynced.shift();
      group.forEach((append, i) => {
        const outcome = outcomes[i]!;
        if ('refused' in outcome) return append.reject(outcome.refused);
        // Written, but not known to be on disk: the caller hears it as an append whose answer was lost.
        if (syncError !== null) return append.reject(syncError);
        append.resolve(outcome.inserted.result);
      });
      for (const recorded of written) this.remember(recorded);
      this.subscriptions.wake();
    });
  }

  /** Why an append was refused, as its caller must hear it. */
  private refusalOf(append: QueuedAppend, error: unknown): Error {
    if (!isUniqueViolation(error)) return error instanceof Error ? error : new Error(String(error));
    // An id already used elsewhere is a bug in whoever made the id: reloading and retrying cannot fix it.
    if (error instanceof Error && error.message.includes('events.id')) {
      return new Error(`appendToStream(${append.stream}): an event id is already used by another event (${error.message})`);
    }
    return new WrongExpectedRevision(append.stream, append.expected, this.currentRevision(append.stream));
  }

  async readStream(stream: StreamName, options: { readonly fromRevision?: bigint } = {}): Promise<readonly RecordedEvent[]> {
    return (this.statements.readStream.all(stream, options.fromRevision ?? 0n) as EventRow[]).map(toRecorded);
  }

  async readAll(options: { readonly fromPosition?: bigint; readonly maxCount?: number } = {}): Promise<readonly RecordedEvent[]> {
    return this.readAfter(options.fromPosition, options.maxCount);
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return this.subscriptions.subscribe(options, handler);
  }

  async close(): Promise<void> {
    // Appends already asked for are written, as they would have been a moment later.
    this.commitGroup();
    await this.walSync.close();
    await this.subscriptions.stopAll();
    if (this.db.open) this.db.close();
  }

  private readAfter(after: bigint | undefined, maxCount: number | undefined): RecordedEvent[] {
    const remembered = this.rememberedAfter(after, maxCount);
    if (remembered.length > 0) return remembered;
    // LIMIT -1 is SQLite for "no limit"; positions are >= 1, so -1 reads from the start.
    const rows = this.statements.readAll.all(after ?? -1n, this.unsynced[0] ?? MAX_POSITION, maxCount === undefined ? -1 : Math.max(0, Math.floor(maxCount))) as EventRow[];
    return rows.map((row) => this.parsedOnce(row));
  }

  private parsedOnce(row: EventRow): RecordedEvent {
    const known = this.parsed.get(row.position);
    if (known !== undefined) return known;
    const recorded = toRecorded(row);
    this.remember(recorded);
    return recorded;
  }

  private remember(recorded: RecordedEvent): void {
    this.parsed.set(recorded.position, recorded);
    // A Map iterates in insertion order: the first key is the one parsed longest ago.
    if (this.parsed.size > PARSED_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value!);
  }

  /**
   * The events right after `after` that this instance just committed or read, without asking SQLite: each
   * subscription reads every new event, and a query per subscription per commit was most of their cost.
   * Positions are integers, so `after + 1` found here is the next event of the log, whoever wrote it; at
   * the first position not found here (another process's event), SQLite is asked.
   */
  private rememberedAfter(after: bigint | undefined, maxCount: number | undefined): RecordedEvent[] {
    const found: RecordedEvent[] = [];
    if (after === undefined) return found;
    const limit = maxCount ?? Number.POSITIVE_INFINITY;
    const end = this.unsynced[0] ?? MAX_POSITION;
    for (let next = after + 1n; found.length < limit && next < end; next += 1n) {
      const recorded = this.parsed.get(next);
      if (recorded === undefined) break;
      found.push(recorded);
    }
    return found;
  }

  private currentRevision(stream: StreamName): bigint | 'no_stream' {
    const row = this.statements.currentRevision.get(stream) as { revision: bigint | null };
    return row.revision ?? 'no_stream';
  }

  /**
   * A retry of an append that already succeeded (same ids, same place in the same stream) returns the
   * first result instead of failing: that is what deterministic event ids are for, and EventStoreDB does
   * the same.
   */
  private retriedAppend({ stream, events, expected }: QueuedAppend): Inserted | undefined {
    const first = this.statements.byId.get(events[0].id) as EventRow | undefined;
    if (first === undefined || first.stream !== stream) return undefined;
    const last = first.revision + BigInt(events.length - 1);
    const rows = this.statements.streamRange.all(stream, first.revision, last) as EventRow[];
    const sameEvents = rows.length === events.length && rows.every((row, i) => row.id === events[i].id);
    const before = first.revision === 0n ? 'no_stream' : first.revision - 1n;
    if (!sameEvents || !matches(expected, before)) return undefined;
    const lastRow = rows[rows.length - 1];
    return { result: { nextExpectedRevision: lastRow.revision, position: lastRow.position }, recorded: [] };
  }

  private insertEvents({ stream, events, expected }: QueuedAppend): Inserted {
    const current = this.currentRevision(stream);
    if (!matches(expected, current)) throw new WrongExpectedRevision(stream, expected, current);
    const at = new Date().toISOString();
    let revision = current === 'no_stream' ? 0n : current + 1n;
    let position = 0n;
    const recorded: RecordedEvent[] = [];
    for (const event of events) {
      const data = JSON.stringify(event.data);
      const info = this.statements.insert.run(event.id, stream, revision, event.type, data, at);
      position = BigInt(info.lastInsertRowid);
      // As a reader would get it back: parsed from what was stored, frozen, shared by every subscription.
      recorded.push(toRecorded({ position, id: event.id, stream, revision, type: event.type, data, recorded_at: at }));
      revision += 1n;
    }
    return { result: { nextExpectedRevision: revision - 1n, position }, recorded };
  }
}
