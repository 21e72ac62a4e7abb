import type Logger from 'bunyan';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';

export interface Backoff {
  /** Wait before the first resubscribe after a failure. */
  readonly initialMs: number;
  /** The wait doubles on each failure in a row without progress, up to this. */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 100, maxMs: 10_000 };

export interface KeepSubscribedOptions {
  /** Who subscribes: every failure is logged with it. */
  readonly name: string;
  /** Exclusive, as in SubscribeOptions: the first event delivered is the one after it. Omitted: from the start. */
  readonly fromPosition?: bigint;
  readonly log: Logger;
  readonly backoff?: Backoff;
}

/**
 * A catch-up subscription to every stream that survives failures. When the store's subscription dies (a
 * lost connection, or the handler throwing), it resubscribes after a backoff from the last event the
 * handler finished: the event whose handler threw is delivered again, never skipped (handlers are
 * idempotent; delivery is at least once). The backoff doubles on failures in a row and starts over once
 * an event has been handled. `stop()` stops it for good, also while it waits to resubscribe.
 */
export const keepSubscribed = (
  eventStore: EventStore,
  options: KeepSubscribedOptions,
  handler: (event: RecordedEvent) => Promise<void>,
): Subscription => {
  const { name, log } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let position = options.fromPosition;
  let delayMs = backoff.initialMs;
  let stopped = false;
  let current: Subscription | null = null;
  let retry: NodeJS.Timeout | null = null;

  const subscribe = (): void => {
    retry = null;
    if (stopped) return;
    let progressed = false;
    let failed = false;
    const subscription = eventStore.subscribeToAll(
      {
        ...(position === undefined ? {} : { fromPosition: position }),
        onError: (err) => {
          if (failed) return;
          failed = true;
          if (current === subscription) current = null;
          if (stopped) return;
          if (progressed) delayMs = backoff.initialMs;
          log.error({ err, subscriber: name, position: position?.toString() ?? null, retry_in_ms: delayMs }, 'subscription failed; resubscribing from the last handled event');
          retry = setTimeout(subscribe, delayMs);
          retry.unref();
          delayMs = Math.min(delayMs * 2, backoff.maxMs);
        },
      },
      async (event) => {
        await handler(event);
        position = event.position;
        progressed = true;
      },
    );
    // An implementation may report a failure before it even returns the subscription.
    if (!failed) current = subscription;
  };

  subscribe();

  return {
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const running = current;
      current = null;
      await running?.stop();
    },
  };
};
