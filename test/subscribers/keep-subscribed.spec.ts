import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '../../src/adapters/event-store/port';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import { keepSubscribed } from '../../src/subscribers/keep-subscribed';
import { SubscriberRunner } from '../../src/subscribers/subscriber-runner';
import { FlakyEventStore, recordingLogger, temporarySqliteStore, waitFor } from './support';

const STREAM = `keep-${randomUUID()}`;
const FAST = { initialMs: 1, maxMs: 10 };

const appendAll = async (store: EventStore, types: readonly string[]): Promise<RecordedEvent[]> => {
  for (const type of types) await store.appendToStream(STREAM, [{ id: randomUUID(), type, data: {} }], 'any');
  return [...(await store.readStream(STREAM))];
};

describe('keepSubscribed: a subscription that survives failures', () => {
  let sqlite: ReturnType<typeof temporarySqliteStore>;
  beforeEach(() => {
    sqlite = temporarySqliteStore();
  });
  afterEach(() => sqlite.dispose());

  it('delivers the event whose handler threw again, then the following ones', async () => {
    const { log, records } = recordingLogger();
    await appendAll(sqlite.store, ['E0', 'E1', 'E2']);
    const delivered: string[] = [];
    const handled: string[] = [];
    let thrown = false;
    const subscription = keepSubscribed(sqlite.store, { name: 'flaky-handler', log, backoff: FAST }, async (event) => {
      delivered.push(event.type);
      if (event.type === 'E1' && !thrown) {
        thrown = true;
        throw new Error('transient');
      }
      handled.push(event.type);
    });
    try {
      await waitFor(() => handled.length === 3, 'the three stored events');
      await appendAll(sqlite.store, ['E3']);
      await waitFor(() => handled.length === 4, 'the live event');
    } finally {
      await subscription.stop();
    }
    assert.deepEqual(delivered, ['E0', 'E1', 'E1', 'E2', 'E3']);
    assert.deepEqual(handled, ['E0', 'E1', 'E2', 'E3']);
    const failures = records.filter((r) => r.subscriber === 'flaky-handler');
    assert.equal(failures.length, 1);
    assert.equal(failures[0].err.message, 'transient');
  });

  it('resumes a lost store subscription from the last handled event, without redelivering earlier ones', async () => {
    const { log, records } = recordingLogger();
    const stored = await appendAll(sqlite.store, ['E0', 'E1', 'E2', 'E3']);
    // The first subscription dies after two handled events, as on a dropped EventStoreDB connection.
    const flaky = new FlakyEventStore(sqlite.store, 2);
    const handled: RecordedEvent[] = [];
    const subscription = keepSubscribed(flaky, { name: 'lost-connection', fromPosition: stored[0].position, log, backoff: FAST }, async (event) => {
      handled.push(event);
    });
    try {
      await waitFor(() => handled.length === 3, 'the stored events after E0');
      await appendAll(sqlite.store, ['E4']);
      await waitFor(() => handled.length === 4, 'the live event');
    } finally {
      await subscription.stop();
    }
    assert.deepEqual(handled.map((e) => e.type), ['E1', 'E2', 'E3', 'E4']);
    // fromPosition is exclusive: the second subscription starts right after E2, the last event handled.
    assert.deepEqual(flaky.subscribedFrom, [stored[0].position, stored[2].position]);
    assert.equal(records.filter((r) => r.subscriber === 'lost-connection' && r.err?.message === 'connection lost').length, 1);
  });

  it('waits longer after each failure in a row, up to the cap, and starts over after progress', async () => {
    const { log, records } = recordingLogger();
    await appendAll(sqlite.store, ['E0', 'E1']);
    const failuresLeft: Record<string, number> = { E0: 4, E1: 1 };
    const handled: string[] = [];
    const subscription = keepSubscribed(sqlite.store, { name: 'backoff', log, backoff: { initialMs: 1, maxMs: 4 } }, async (event) => {
      if (failuresLeft[event.type]-- > 0) throw new Error(`${event.type} fails`);
      handled.push(event.type);
    });
    try {
      await waitFor(() => handled.length === 2, 'both events');
    } finally {
      await subscription.stop();
    }
    assert.deepEqual(handled, ['E0', 'E1']);
    assert.deepEqual(records.filter((r) => r.subscriber === 'backoff').map((r) => r.retry_in_ms), [1, 2, 4, 4, 1]);
  });

  // The negative checks below wait past the due time of a resubscribe that stop() must have cancelled: Node
  // runs timers in order of due time, so once the later sentinel timer fired, a forgotten one would have too.
  it('does not resume once stopped while waiting to resubscribe', async () => {
    const { log, records } = recordingLogger();
    await appendAll(sqlite.store, ['E0']);
    const counting = new FlakyEventStore(sqlite.store);
    let deliveries = 0;
    const subscription = keepSubscribed(counting, { name: 'stopped-in-backoff', log, backoff: { initialMs: 20, maxMs: 20 } }, async () => {
      deliveries += 1;
      throw new Error('always');
    });
    await waitFor(() => records.length === 1, 'the first failure');
    await subscription.stop();
    await sleep(100);
    assert.equal(counting.subscribedFrom.length, 1);
    assert.equal(deliveries, 1);
  });

  it('does not resume when the handler that was running at stop() throws', async () => {
    const { log, records } = recordingLogger();
    await appendAll(sqlite.store, ['E0']);
    const counting = new FlakyEventStore(sqlite.store);
    let entered = false;
    let fail!: (error: Error) => void;
    const subscription = keepSubscribed(counting, { name: 'stopped-while-handling', log, backoff: { initialMs: 1, maxMs: 1 } }, () => {
      entered = true;
      return new Promise<void>((_resolve, reject) => {
        fail = reject;
      });
    });
    await waitFor(() => entered, 'the handler to start');
    const stopped = subscription.stop();
    fail(new Error('failed during stop'));
    await stopped;
    await appendAll(sqlite.store, ['E1']);
    await sleep(50);
    assert.equal(counting.subscribedFrom.length, 1);
    assert.equal(records.length, 0, 'a failure after stop() is not a reason to resubscribe');
  });
});

describe('SubscriberRunner: a failing handler is retried, not skipped', () => {
  it('handles the same event again and checkpoints only what it finished', async () => {
    const sqlite = temporarySqliteStore();
    const { log } = recordingLogger();
    const checkpoints = new SqliteCheckpointStore(':memory:');
    const stored = await appendAll(sqlite.store, ['NotADomainEvent']);
    // Unknown types are checkpointed without reaching the subscriber; a domain event goes through it.
    const teamId = randomUUID();
    await sqlite.store.appendToStream(`team-${teamId}`, [
      { id: randomUUID(), type: 'TokensAdded', data: { team_id: teamId, operation_id: 'op-1', amount: 1000, at: '2026-01-01T00:00:00.000Z' } },
    ], 'any');
    const [added] = await sqlite.store.readStream(`team-${teamId}`);
    const seen: string[] = [];
    let thrown = false;
    const runner = new SubscriberRunner(sqlite.store, checkpoints, {
      name: 'retried',
      handle: async (event) => {
        seen.push(event.type);
        if (!thrown) {
          thrown = true;
          throw new Error('transient command failure');
        }
      },
    }, log, FAST);
    try {
      await runner.start();
      await waitFor(async () => (await checkpoints.loadCheckpoint('subscriber:retried')) === added.position, 'the checkpoint to reach the event');
    } finally {
      await runner.stop();
      await sqlite.dispose();
    }
    assert.ok(stored[0].position < added.position);
    assert.deepEqual(seen, ['TokensAdded', 'TokensAdded']);
  });
});
