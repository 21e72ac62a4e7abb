import { setTimeout as sleep } from 'node:timers/promises';
import bunyan from 'bunyan';
import type { EventStore, RecordedEvent, SubscribeOptions, Subscription } from '../../src/adapters/event-store/port';
import type { SqliteEventStore } from '../../src/adapters/event-store/sqlite-event-store';
import { ForwardingStore } from '../support/forwarding-store';
import { sqliteFiles } from '../support/sqlite-files';

/** Polls until the condition holds; the deadline only names what was awaited (mocha's timeout is the real bound). */
export const waitFor = async (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
};

/** A fresh SQLite event store in its own folder; `dispose` closes it and removes the folder. */
export const temporarySqliteStore = (): { readonly store: SqliteEventStore; dispose(): Promise<void> } => {
  const files = sqliteFiles();
  return { store: files.open(files.newFile()), dispose: files.cleanup };
};

/** A logger whose records the test can read. */
export const recordingLogger = (): { readonly log: bunyan; readonly records: Record<string, any>[] } => {
  const records: Record<string, any>[] = [];
  const log = bunyan.createLogger({
    name: 'test',
    streams: [{ type: 'raw', level: 'trace', stream: { write: (record: object) => void records.push(record) } as unknown as NodeJS.WritableStream }],
  });
  return { log, records };
};

/**
 * Wraps a store and counts its subscriptions. `failFirstAfter: n` makes the first subscription die like a
 * lost connection once its handler finished n events: later events are not delivered, then onError is called.
 */
export class FlakyEventStore extends ForwardingStore {
  readonly subscribedFrom: (bigint | undefined)[] = [];

  constructor(
    inner: EventStore,
    private readonly failFirstAfter: number | null = null,
  ) {
    super(inner);
  }

  override subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    this.subscribedFrom.push(options.fromPosition);
    const failAfter = this.subscribedFrom.length === 1 ? this.failFirstAfter : null;
    if (failAfter === null) return this.inner.subscribeToAll(options, handler);
    let handled = 0;
    let dead = false;
    const real: Subscription = this.inner.subscribeToAll({ ...options, onError: (error) => (dead ? undefined : options.onError?.(error)) }, async (event) => {
      if (dead) return;
      if (handled === failAfter) {
        dead = true;
        // The connection drops: stop delivering (never await stop() inside the handler) and report it.
        setImmediate(() => void real.stop().then(() => options.onError?.(new Error('connection lost'))));
        return;
      }
      await handler(event);
      handled += 1;
    });
    return real;
  }
}
