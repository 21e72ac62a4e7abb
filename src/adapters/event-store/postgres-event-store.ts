import type pg from 'pg';
import { ADVISORY_LOCK, createSchema, openPool } from '../postgres/pool';
import { PollingSubscriptions } from './polling-subscription';
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
import { PostgresWakeUps } from './postgres-wake-ups';

const SUBSCRIPTION_BATCH = 500;
/** Appends wake subscriptions through LISTEN/NOTIFY; the poll only catches a notice lost with its connection. */
const DEFAULT_POLL_INTERVAL_MS = 1000;
export const APPENDED_CHANNEL = 'events_appended';

/**
 * One table; `data` is text, not jsonb: jsonb sorts an object's keys and drops its layout, and events are
 * returned exactly as they were written. The position is an identity column: it is handed out in append
 * order because every append holds the append lock until it commits (see append_events).
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id          text        NOT NULL UNIQUE,
    stream      text        NOT NULL,
    revision    bigint      NOT NULL,
    type        text        NOT NULL,
    data        text        NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (stream, revision)
  );

  -- One statement per append, so the lock is held for one round trip only. A sequence value is taken before
  -- commit: without the lock, an append could take position 5, commit after another took 6 and committed,
  -- and a subscriber already past 6 would never see 5. PostgreSQL makes a commit visible before it
  -- releases the transaction's locks, so the next append takes its position after this one is visible.
  CREATE OR REPLACE FUNCTION append_events(p_stream text, p_expected text, p_ids text[], p_types text[], p_data text[])
  RETURNS TABLE (outcome text, last_revision bigint, last_position bigint)
  LANGUAGE plpgsql AS $fn$
  DECLARE
    v_count int := cardinality(p_ids);
    v_first_stream text;
    v_first_revision bigint;
    v_current bigint;
    v_position bigint;
  BEGIN
    PERFORM pg_advisory_xact_lock(${ADVISORY_LOCK.append}, hashtext(current_database()));
    -- A retry of an append that succeeded (same ids at the same place) returns the first result.
    SELECT e.stream, e.revision INTO v_first_stream, v_first_revision FROM events e WHERE e.id = p_ids[1];
    IF FOUND AND v_first_stream = p_stream
      AND (SELECT count(*) FROM events e
           WHERE e.stream = p_stream AND e.revision >= v_first_revision AND e.revision < v_first_revision + v_count
             AND e.id = p_ids[(e.revision - v_first_revision + 1)::int]) = v_count
      AND (p_expected = 'any' OR p_expected = CASE WHEN v_first_revision = 0 THEN 'no_stream' ELSE (v_first_revision - 1)::text END)
    THEN
      RETURN QUERY SELECT 'retried'::text, e.revision, e.position FROM events e
        WHERE e.stream = p_stream AND e.revision = v_first_revision + v_count - 1;
      RETURN;
    END IF;
    SELECT max(e.revision) INTO v_current FROM events e WHERE e.stream = p_stream;
    IF p_expected <> 'any' AND p_expected <> coalesce(v_current::text, 'no_stream') THEN
      RETURN QUERY SELECT 'conflict'::text, v_current, NULL::bigint;
      RETURN;
    END IF;
    v_current := coalesce(v_current, -1);
    FOR i IN 1 .. v_count LOOP
      INSERT INTO events (id, stream, revision, type, data) VALUES (p_ids[i], p_stream, v_current + i, p_types[i], p_data[i])
        RETURNING events.position INTO v_position;
    END LOOP;
    -- Delivered at commit, to every connection listening on this database.
    PERFORM pg_notify('${APPENDED_CHANNEL}', v_position::text);
    RETURN QUERY SELECT 'appended'::text, v_current + v_count, v_position;
  END
  $fn$;
`;

interface EventRow {
  readonly position: string;
  readonly id: string;
  readonly stream: string;
  readonly revision: string;
  readonly type: string;
  readonly data: string;
  readonly recorded_at: Date;
}

const COLUMNS = 'position, id, stream, revision, type, data, recorded_at';

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.id,
  streamName: row.stream,
  type: row.type,
  data: JSON.parse(row.data) as Record<string, unknown>,
  revision: BigInt(row.revision),
  position: BigInt(row.position),
  recordedAt: row.recorded_at,
});

const UNIQUE_VIOLATION = '23505';

export interface PostgresEventStoreOptions {
  /** How long a subscription sleeps when no notice woke it (default 1 s). */
  readonly pollIntervalMs?: number;
}

/**
 * The event store on PostgreSQL (DATABASE_URL): the multi-machine path, where every api instance and
 * worker appends to and follows one log. Subscriptions read `position > last` and are woken by
 * LISTEN/NOTIFY, with a poll as the fallback.
 */
export class PostgresEventStore implements EventStore {
  private readonly subscriptions: PollingSubscriptions;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly wakeUps: PostgresWakeUps,
    options: PostgresEventStoreOptions,
  ) {
    this.subscriptions = new PollingSubscriptions({
      read: (after, maxCount) => this.readAfter(after, maxCount),
      batchSize: SUBSCRIPTION_BATCH,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    });
    wakeUps.onNotice(() => this.subscriptions.wake());
  }

  /** Connects, creates the schema if needed and starts listening: an unreachable server fails here. */
  static async connect(url: string, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
    const pool = await openPool(url, { purpose: 'event store' });
    try {
      await createSchema(pool, SCHEMA);
      const wakeUps = await PostgresWakeUps.listen(url, APPENDED_CHANNEL);
      return new PostgresEventStore(pool, wakeUps, options);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`appendToStream(${stream}): no events to append`);
    let row: { outcome: 'appended' | 'retried' | 'conflict'; last_revision: string | null; last_position: string | null };
    try {
      const result = await this.pool.query('SELECT * FROM append_events($1, $2, $3, $4, $5)', [
        stream,
        expected.toString(),
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
      ]);
      row = result.rows[0];
    } catch (error) {
      // An id already used elsewhere is a bug in whoever made the id: reloading and retrying cannot fix it.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION && (error as { constraint?: string }).constraint === 'events_id_key') {
        throw new Error(`appendToStream(${stream}): an event id is already used by another event (${(error as Error).message})`);
      }
      throw error;
    }
    if (row.outcome === 'conflict') {
      throw new WrongExpectedRevision(stream, expected, row.last_revision === null ? 'no_stream' : BigInt(row.last_revision));
    }
    // Local subscriptions need not wait for the notice to come back from the server.
    this.subscriptions.wake();
    return { nextExpectedRevision: BigInt(row.last_revision!), position: BigInt(row.last_position!) };
  }

  async readStream(stream: StreamName, options: { readonly fromRevision?: bigint } = {}): Promise<readonly RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream = $1 AND revision >= $2 ORDER BY revision`, [
      stream,
      (options.fromRevision ?? 0n).toString(),
    ]);
    return rows.map(toRecorded);
  }

  async readAll(options: { readonly fromPosition?: bigint; readonly maxCount?: number } = {}): Promise<readonly RecordedEvent[]> {
    return this.readAfter(options.fromPosition, options.maxCount);
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return this.subscriptions.subscribe(options, handler);
  }

  async close(): Promise<void> {
    await this.subscriptions.stopAll();
    await this.wakeUps.close();
    await this.pool.end().catch(() => undefined);
  }

  private async readAfter(after: bigint | undefined, maxCount: number | undefined): Promise<RecordedEvent[]> {
    // LIMIT NULL is "no limit"; identity positions start at 1, so 0 reads from the start.
    const limit = maxCount === undefined ? null : Math.max(0, Math.floor(maxCount));
    const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2`, [
      (after ?? 0n).toString(),
      limit,
    ]);
    return rows.map(toRecorded);
  }
}
