import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StreamName,
  SubscribeOptions,
  Subscription,
} from '../../src/adapters/event-store/port';

/**
 * An event store that forwards to another one; subclasses change one method. Each wrapper is a store
 * instance of its own, so it gets its own per-store mutex and state cache in the command handler: two
 * wrappers over one store behave like two processes over one database.
 */
export class ForwardingStore implements EventStore {
  constructor(protected readonly inner: EventStore) {}
  appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.appendToStream(stream, events, expected);
  }
  readStream(stream: StreamName, options?: { readonly fromRevision?: bigint }): Promise<readonly RecordedEvent[]> {
    return this.inner.readStream(stream, options);
  }
  readAll(options?: { readonly fromPosition?: bigint; readonly maxCount?: number }): Promise<readonly RecordedEvent[]> {
    return this.inner.readAll(options);
  }
  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return this.inner.subscribeToAll(options, handler);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
