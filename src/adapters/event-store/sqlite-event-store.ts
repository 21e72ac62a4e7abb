import Database from 'better-sqlite3';
import { privateSqliteFile } from '../disk/private-files';
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

/** Another process appending to the same file cannot wake us: how long a subscription waits before it looks again. */
const POLL_INTERVAL_MS = 200;
const SUBSCRIPTION_BATCH = 500;
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
  private readonly appendTransaction;

  constructor(path: string) {
    privateSqliteFile(path);
    this.db = new Database(path);
    // WAL lets readers (subscriptions, other processes) run while one writer commits.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);

    const prepare = (sql: string) => this.db.prepare(sql).safeIntegers(true);
    this.statements = {
      currentRevision: prepare('SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
      byId: prepare('SELECT * FROM events WHERE id = ?'),
      streamRange: prepare('SELECT * FROM events WHERE stream = ? AND revision BETWEEN ? AND ? ORDER BY revision'),
      insert: prepare('INSERT INTO events (id, stream, revision, type, data, recorded_at) VALUES (?, ?, ?, ?, ?, ?)'),
      readStream: prepare('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision'),
      readAll: prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
    };
    this.appendTransaction = this.db.transaction(
      (stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult =>
        this.retriedAppend(stream, events, expected) ?? this.insertEvents(stream, events, expected),
    );
  }

  async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`appendToStream(${stream}): no events to append`);
    let result: AppendResult;
    try {
      // IMMEDIATE takes the write lock before the revision check, so another process cannot slip in between.
      result = this.appendTransaction.immediate(stream, events, expected);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // An id already used elsewhere is a bug in whoever made the id: reloading and retrying cannot fix it.
      if (error instanceof Error && error.message.includes('events.id')) {
        throw new Error(`appendToStream(${stream}): an event id is already used by another event (${error.message})`);
      }
      throw new WrongExpectedRevision(stream, expected, this.currentRevision(stream));
    }
    this.subscriptions.wake();
    return result;
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
    await this.subscriptions.stopAll();
    if (this.db.open) this.db.close();
  }

  private readAfter(after: bigint | undefined, maxCount: number | undefined): RecordedEvent[] {
    // LIMIT -1 is SQLite for "no limit"; positions are >= 1, so -1 reads from the start.
    const rows = this.statements.readAll.all(after ?? -1n, maxCount === undefined ? -1 : Math.max(0, Math.floor(maxCount))) as EventRow[];
    return rows.map((row) => this.parsedOnce(row));
  }

  private parsedOnce(row: EventRow): RecordedEvent {
    const known = this.parsed.get(row.position);
    if (known !== undefined) return known;
    const recorded = toRecorded(row);
    this.parsed.set(row.position, recorded);
    // A Map iterates in insertion order: the first key is the one parsed longest ago.
    if (this.parsed.size > PARSED_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value!);
    return recorded;
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
  private retriedAppend(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult | undefined {
    const first = this.statements.byId.get(events[0].id) as EventRow | undefined;
    if (first === undefined || first.stream !== stream) return undefined;
    const last = first.revision + BigInt(events.length - 1);
    const rows = this.statements.streamRange.all(stream, first.revision, last) as EventRow[];
    const sameEvents = rows.length === events.length && rows.every((row, i) => row.id === events[i].id);
    const before = first.revision === 0n ? 'no_stream' : first.revision - 1n;
    if (!sameEvents || !matches(expected, before)) return undefined;
    const lastRow = rows[rows.length - 1];
    return { nextExpectedRevision: lastRow.revision, position: lastRow.position };
  }

  private insertEvents(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult {
    const current = this.currentRevision(stream);
    if (!matches(expected, current)) throw new WrongExpectedRevision(stream, expected, current);
    const recordedAt = new Date().toISOString();
    let revision = current === 'no_stream' ? 0n : current + 1n;
    let position = 0n;
    for (const event of events) {
      const info = this.statements.insert.run(event.id, stream, revision, event.type, JSON.stringify(event.data), recordedAt);
      position = BigInt(info.lastInsertRowid);
      revision += 1n;
    }
    return { nextExpectedRevision: revision - 1n, position };
  }
}
