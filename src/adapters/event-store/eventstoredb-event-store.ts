import {
  ANY,
  type AllStreamRecordedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM,
  type Position,
  type ReadPosition,
  type RecordedEvent as EsdbRecordedEvent,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
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

const READ_ALL_PAGE = 500;

const toEsdbExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : expected;

/**
 * Since 20.x every event has its own log position, and commit = prepare for events written by one
 * append, so our bigint maps back to a full ESDB position.
 */
const toEsdbPosition = (position: bigint): Position => ({ commit: position, prepare: position });

/**
 * System events ($-types, $-streams, links) are the server's own, and the port only carries JSON events:
 * anything else cannot have been appended through this adapter.
 */
const isOurs = (event: EsdbRecordedEvent): boolean =>
  event.isJson && !event.type.startsWith('$') && !event.streamId.startsWith('$');

const toRecorded = (event: EsdbRecordedEvent, position: Position): RecordedEvent => {
  if (!event.isJson) throw new Error(`event ${event.id} in ${event.streamId} is not JSON`);
  return {
    id: event.id,
    streamName: event.streamId,
    type: event.type,
    data: event.data as Record<string, unknown>,
    revision: event.revision,
    position: position.commit,
    recordedAt: event.created,
  };
};

const positionOf = (event: EsdbRecordedEvent): Position => {
  if (event.position === undefined) throw new Error('EventStoreDB returned an event without a position (server older than 22.6?)');
  return event.position;
};

/** The production event store: EventStoreDB over gRPC. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();

  /** `connectionString`: e.g. `esdb://localhost:2113?tls=false`. */
  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`appendToStream(${stream}): no events to append`);
    const data = events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data }));
    try {
      const result = await this.client.appendToStream(stream, data, { expectedRevision: toEsdbExpected(expected) });
      const position = result.position?.commit ?? (await this.lastPositionOf(stream));
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion === NO_STREAM ? 'no_stream' : error.actualVersion;
        throw new WrongExpectedRevision(stream, expected, actual);
      }
      throw error;
    }
  }

  async readStream(stream: StreamName, options: { readonly fromRevision?: bigint } = {}): Promise<readonly RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, options.fromRevision === undefined ? {} : { fromRevision: options.fromRevision })) {
        if (resolved.event) events.push(toRecorded(resolved.event, positionOf(resolved.event)));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: { readonly fromPosition?: bigint; readonly maxCount?: number } = {}): Promise<readonly RecordedEvent[]> {
    const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    // ESDB reads $all from a position inclusively and counts the system events it returns; page until
    // enough of ours have been collected past the exclusive lower bound.
    let after = options.fromPosition;
    let from: ReadPosition = after === undefined ? START : toEsdbPosition(after);
    while (events.length < maxCount) {
      let read = 0;
      let last: Position | undefined;
      for await (const resolved of this.client.readAll({ fromPosition: from, maxCount: READ_ALL_PAGE })) {
        read += 1;
        const event: AllStreamRecordedEvent | undefined = resolved.event;
        if (!event) continue;
        last = event.position;
        if (after !== undefined && event.position.commit <= after) continue;
        if (isOurs(event)) events.push(toRecorded(event, event.position));
        if (events.length >= maxCount) break;
      }
      if (read < READ_ALL_PAGE || last === undefined) break;
      after = last.commit;
      from = last;
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const source = this.client.subscribeToAll({
      fromPosition: options.fromPosition === undefined ? START : toEsdbPosition(options.fromPosition),
      filter: excludeSystemEvents(),
    });
    const subscription: EsdbSubscription = new EsdbSubscription(source, options, handler, () => this.subscriptions.delete(subscription));
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  /** Servers before 21.10 do not return the position of an append: read it back. */
  private async lastPositionOf(stream: StreamName): Promise<bigint> {
    for await (const resolved of this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      if (resolved.event) return positionOf(resolved.event).commit;
    }
    throw new Error(`stream ${stream} is empty right after an append`);
  }
}

class EsdbSubscription implements Subscription {
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly source: AllStreamSubscription,
    private readonly options: SubscribeOptions,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly forget: () => void,
  ) {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      await this.source.unsubscribe();
    }
    await this.done;
  }

  private async run(): Promise<void> {
    const after = this.options.fromPosition;
    try {
      // The async iterator pulls one event at a time, so handler calls never overlap.
      for await (const resolved of this.source) {
        if (this.stopped) break;
        const event = resolved.event;
        if (!event || !isOurs(event)) continue;
        if (after !== undefined && event.position.commit <= after) continue;
        await this.handler(toRecorded(event, event.position));
      }
      if (!this.stopped) throw new Error('the EventStoreDB subscription ended without being stopped');
    } catch (error) {
      if (!this.stopped) {
        this.stopped = true;
        await this.source.unsubscribe().catch(() => undefined);
        this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    } finally {
      this.forget();
    }
  }
}
