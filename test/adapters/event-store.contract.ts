import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from '../../src/adapters/event-store/port';
import { storePerTest } from '../support/store-per-test';

/** Unique per test, so that the suite can run against a shared server. */
export const uniqueStream = (prefix = 'contract'): string => `${prefix}-${randomUUID()}`;

export const newEvent = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type, data });

export const waitUntil = async (condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
};

export const waitUntilAsync = async (condition: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
};

/** Records the events of one stream that a subscription delivers. */
export const collect = (
  store: EventStore,
  stream: string,
  options: SubscribeOptions = {},
): { readonly seen: RecordedEvent[]; readonly subscription: Subscription } => {
  const seen: RecordedEvent[] = [];
  const subscription = store.subscribeToAll(options, async (event) => {
    if (event.streamName === stream) seen.push(event);
  });
  return { seen, subscription };
};

const rejectsWithWrongRevision = async (
  attempt: Promise<unknown>,
  expected: WrongExpectedRevision['expected'],
  actual: WrongExpectedRevision['actual'],
): Promise<void> => {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof WrongExpectedRevision, `expected WrongExpectedRevision, got ${String(error)}`);
    assert.equal(error.expected, expected);
    assert.equal(error.actual, actual);
    return true;
  });
};

/**
 * How to make appends of one event type commit late: they take their position, then wait before they
 * commit, like a transaction that does slow work after its insert. Only a store whose appends can overlap
 * has it (SQLite takes its write lock before it hands out a position, so none can).
 */
export interface SlowCommits {
  /** The event type whose appends commit late. */
  readonly type: string;
  /** True while such an append has taken its position and not committed. */
  committing(): Promise<boolean>;
}

export interface EventStoreContractOptions {
  readonly cleanup?: () => Promise<void>;
  /** Another connection to the same store as `store`: another process, in production. */
  readonly openAgain: (store: EventStore) => Promise<EventStore>;
  readonly slowCommits?: SlowCommits;
}

export function eventStoreContract(name: string, make: () => Promise<EventStore>, options: EventStoreContractOptions): void {
  describe(`event store contract: ${name}`, function () {
    const stores = storePerTest(make, options.openAgain, options.cleanup);
    const again = stores.another;
    let store: EventStore;
    beforeEach(() => {
      store = stores.current();
    });

    describe('appendToStream', () => {
      it('creates a stream with no_stream; revisions start at 0', async () => {
        const stream = uniqueStream();
        const result = await store.appendToStream(stream, [newEvent('A'), newEvent('B')], 'no_stream');
        assert.equal(result.nextExpectedRevision, 1n);
        const events = await store.readStream(stream);
        assert.deepEqual(events.map((e) => e.revision), [0n, 1n]);
        assert.equal(result.position, events[1].position);
      });

      it('appends with the right bigint revision', async () => {
        const stream = uniqueStream();
        const first = await store.appendToStream(stream, [newEvent('A')], 'no_stream');
        const second = await store.appendToStream(stream, [newEvent('B')], first.nextExpectedRevision);
        assert.equal(second.nextExpectedRevision, 1n);
        assert.ok(second.position > first.position);
        assert.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A', 'B']);
      });

      it('reads a stream from a revision, inclusive', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
        assert.deepEqual((await store.readStream(stream, { fromRevision: 1n })).map((e) => e.type), ['B', 'C']);
        assert.deepEqual((await store.readStream(stream, { fromRevision: 0n })).map((e) => e.type), ['A', 'B', 'C']);
        assert.deepEqual(await store.readStream(stream, { fromRevision: 3n }), []);
        assert.deepEqual(await store.readStream(uniqueStream(), { fromRevision: 2n }), []);
      });

      it('refuses a wrong bigint revision and writes nothing', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A'), newEvent('B')], 'no_stream');
        await rejectsWithWrongRevision(store.appendToStream(stream, [newEvent('C')], 0n), 0n, 1n);
        await rejectsWithWrongRevision(store.appendToStream(stream, [newEvent('C')], 5n), 5n, 1n);
        assert.equal((await store.readStream(stream)).length, 2);
      });

      it('refuses a bigint revision on a missing stream', async () => {
        const stream = uniqueStream();
        await rejectsWithWrongRevision(store.appendToStream(stream, [newEvent('A')], 0n), 0n, 'no_stream');
        assert.deepEqual(await store.readStream(stream), []);
      });

      it('refuses no_stream on an existing stream', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A')], 'no_stream');
        await rejectsWithWrongRevision(store.appendToStream(stream, [newEvent('B')], 'no_stream'), 'no_stream', 0n);
        assert.equal((await store.readStream(stream)).length, 1);
      });

      it('appends with any whatever the stream state', async () => {
        const stream = uniqueStream();
        const created = await store.appendToStream(stream, [newEvent('A')], 'any');
        const appended = await store.appendToStream(stream, [newEvent('B')], 'any');
        assert.equal(created.nextExpectedRevision, 0n);
        assert.equal(appended.nextExpectedRevision, 1n);
        assert.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A', 'B']);
      });

      it('is atomic: a conflicting multi-event append writes none of its events', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A')], 'no_stream');
        const batch = [newEvent('B'), newEvent('C'), newEvent('D')];
        await assert.rejects(store.appendToStream(stream, batch, 'no_stream'), WrongExpectedRevision);
        const events = await store.readStream(stream);
        assert.deepEqual(events.map((e) => e.type), ['A']);
      });

      it('lets exactly one of several concurrent appends with the same expected revision win', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('Created')], 'no_stream');
        const attempts = await Promise.allSettled(
          Array.from({ length: 5 }, (_, i) => store.appendToStream(stream, [newEvent(`Attempt${i}`)], 0n)),
        );
        const won = attempts.filter((a) => a.status === 'fulfilled');
        const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
        assert.equal(won.length, 1);
        assert.equal(lost.length, 4);
        for (const loss of lost) assert.ok(loss.reason instanceof WrongExpectedRevision, String(loss.reason));
        assert.equal((await store.readStream(stream)).length, 2);
      });

      it('refuses only the conflicting one of appends made at the same moment, each caller hearing its own answer', async () => {
        // A store that commits concurrent appends together (SQLite's group commit) must still decide each alone.
        const [first, conflicted, last] = [uniqueStream(), uniqueStream(), uniqueStream()];
        await store.appendToStream(conflicted, [newEvent('Created')], 'no_stream');
        const answers = await Promise.allSettled([
          store.appendToStream(first, [newEvent('F1'), newEvent('F2')], 'no_stream'),
          store.appendToStream(conflicted, [newEvent('X1'), newEvent('X2'), newEvent('X3')], 'no_stream'),
          store.appendToStream(last, [newEvent('L1')], 'no_stream'),
          store.appendToStream(conflicted, [newEvent('Next')], 0n),
        ]);
        assert.deepEqual(answers.map((a) => a.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        const refused = answers[1] as PromiseRejectedResult;
        assert.ok(refused.reason instanceof WrongExpectedRevision, String(refused.reason));
        assert.equal(refused.reason.expected, 'no_stream');
        assert.deepEqual((await store.readStream(first)).map((e) => e.type), ['F1', 'F2']);
        assert.deepEqual((await store.readStream(conflicted)).map((e) => e.type), ['Created', 'Next'], 'none of the refused append, the later one on the same stream');
        assert.deepEqual((await store.readStream(last)).map((e) => e.type), ['L1']);
        const [f, , l, n] = answers.map((a) => (a.status === 'fulfilled' ? a.value : null));
        assert.equal(f!.nextExpectedRevision, 1n);
        assert.equal(l!.nextExpectedRevision, 0n);
        assert.equal(n!.nextExpectedRevision, 1n);
      });

      it('treats a retry of a successful append (same ids, same expected revision) as done', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A')], 'no_stream');
        const batch = [newEvent('B'), newEvent('C')];
        const first = await store.appendToStream(stream, batch, 0n);
        const retry = await store.appendToStream(stream, batch, 0n);
        assert.equal(retry.nextExpectedRevision, first.nextExpectedRevision);
        assert.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A', 'B', 'C']);
      });

      it('treats a retry as done even after later appends, and refuses the same ids with another expected revision', async () => {
        const stream = uniqueStream();
        const created = [newEvent('A'), newEvent('B')];
        const first = await store.appendToStream(stream, created, 'no_stream');
        await store.appendToStream(stream, [newEvent('C')], first.nextExpectedRevision);
        const retry = await store.appendToStream(stream, created, 'no_stream');
        assert.deepEqual(retry, first);
        await rejectsWithWrongRevision(store.appendToStream(stream, created, 1n), 1n, 2n);
        assert.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A', 'B', 'C']);
      });

      it('treats a retry through another connection as done (a process that lost the answer and asks again)', async () => {
        const stream = uniqueStream();
        const batch = [newEvent('A')];
        const first = await store.appendToStream(stream, batch, 'any');
        const retry = await (await again()).appendToStream(stream, batch, 'any');
        assert.deepEqual(retry, first);
        assert.equal((await store.readStream(stream)).length, 1);
      });

      it('refuses an empty append', async () => {
        await assert.rejects(store.appendToStream(uniqueStream(), [], 'any'));
      });

      it('gives strictly increasing positions across streams, in append order', async () => {
        const [a, b] = [uniqueStream(), uniqueStream()];
        await store.appendToStream(a, [newEvent('A1')], 'no_stream');
        await store.appendToStream(b, [newEvent('B1'), newEvent('B2')], 'no_stream');
        await store.appendToStream(a, [newEvent('A2')], 0n);
        const [a1, a2] = await store.readStream(a);
        const [b1, b2] = await store.readStream(b);
        const inAppendOrder = [a1, b1, b2, a2].map((e) => e.position);
        for (let i = 1; i < inAppendOrder.length; i += 1) assert.ok(inAppendOrder[i] > inAppendOrder[i - 1], `position ${i} increases`);
      });
    });

    describe('reading', () => {
      it('returns [] for a missing stream', async () => {
        assert.deepEqual(await store.readStream(uniqueStream()), []);
      });

      it('reads a stream in revision order with ids, types and stream name', async () => {
        const stream = uniqueStream();
        const events = [newEvent('A'), newEvent('B'), newEvent('C')];
        await store.appendToStream(stream, events.slice(0, 2), 'no_stream');
        await store.appendToStream(stream, events.slice(2), 1n);
        const read = await store.readStream(stream);
        assert.deepEqual(
          read.map((e) => [e.id, e.type, e.streamName, e.revision]),
          events.map((e, i) => [e.id, e.type, stream, BigInt(i)]),
        );
      });

      it('readAll: fromPosition is exclusive and maxCount caps the result', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A'), newEvent('B'), newEvent('C'), newEvent('D')], 'no_stream');
        const [a, b, c] = await store.readStream(stream);
        const page = await store.readAll({ fromPosition: a.position, maxCount: 2 });
        assert.deepEqual(page.map((e) => e.id), [b.id, c.id]);
        const rest = await store.readAll({ fromPosition: c.position });
        assert.equal(rest[0]?.type, 'D');
        assert.deepEqual(await store.readAll({ fromPosition: a.position, maxCount: 0 }), []);
      });

      it('readAll without fromPosition starts at the beginning, in position order', async () => {
        const stream = uniqueStream();
        const { position } = await store.appendToStream(stream, [newEvent('A')], 'no_stream');
        const first = await store.readAll({ maxCount: 3 });
        assert.ok(first.length >= 1 && first.length <= 3);
        assert.ok(first[0].position <= position);
        for (let i = 1; i < first.length; i += 1) assert.ok(first[i].position > first[i - 1].position);
      });

      it('round-trips data: nested objects, arrays, unicode, null, booleans, numbers', async () => {
        const stream = uniqueStream();
        const data = {
          text: 'Grüße, 会議, مرحبا, emoji 🎙️👩🏽‍💻, combining é',
          nested: { deeper: { list: [1, 'two', { three: 3 }, null], flag: false } },
          amount: 1234567.5,
          negative: -42,
          nothing: null,
          empty: {},
          quotes: 'she said "hi" \\ and \n left',
        };
        await store.appendToStream(stream, [newEvent('Before'), newEvent('Data', data)], 'no_stream');
        const [before, read] = await store.readStream(stream);
        assert.deepEqual(read.data, data);
        const [fromAll] = await store.readAll({ fromPosition: before.position, maxCount: 1 });
        assert.deepEqual(fromAll?.data, data);
      });

      it('returns data byte for byte: key order, number forms and escapes as written', async () => {
        const stream = uniqueStream();
        // Key orders a store that normalises JSON (PostgreSQL jsonb: shorter keys first) would change.
        const data = {
          zeta: 1,
          a: { later: true, earlier: false, mm: [3, 2, 1] },
          mid: 0.1,
          big: 12345678901234567000,
          tiny: 5e-324,
          fraction: 1.5,
          control: 'nul \u0000 bell \u0007 tab \t',
          lone: '\ud800 alone',
          '': 'an empty key',
          'dotted.key': 'kept',
          $dollar: 'kept too',
        };
        await store.appendToStream(stream, [newEvent('Data', data)], 'no_stream');
        const [read] = await store.readStream(stream);
        assert.equal(JSON.stringify(read.data), JSON.stringify(data));
        assert.deepEqual(Object.keys(read.data.a as object), ['later', 'earlier', 'mm']);
        const [fromAll] = await store.readAll({ fromPosition: read.position - 1n, maxCount: 1 });
        assert.equal(JSON.stringify(fromAll?.data), JSON.stringify(data));
      });

      it('stamps recordedAt as a Date from the store clock', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A')], 'no_stream');
        const [read] = await store.readStream(stream);
        assert.ok(read.recordedAt instanceof Date);
        assert.ok(Math.abs(read.recordedAt.getTime() - Date.now()) < 5 * 60_000, 'recordedAt is near now');
      });
    });

    describe('subscribeToAll', () => {
      it('catches up on past events, then delivers live ones', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('Past1'), newEvent('Past2')], 'no_stream');
        const { seen, subscription } = collect(store, stream);
        await waitUntil(() => seen.length === 2, 'catch-up');
        await store.appendToStream(stream, [newEvent('Live')], 1n);
        await waitUntil(() => seen.length === 3, 'the live event');
        await subscription.stop();
        assert.deepEqual(seen.map((e) => e.type), ['Past1', 'Past2', 'Live']);
        assert.deepEqual(seen.map((e) => e.revision), [0n, 1n, 2n]);
      });

      it('starts strictly after fromPosition', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
        const [, b] = await store.readStream(stream);
        const { seen, subscription } = collect(store, stream, { fromPosition: b.position });
        await waitUntil(() => seen.length >= 1, 'the event after fromPosition');
        await store.appendToStream(stream, [newEvent('D')], 2n);
        await waitUntil(() => seen.length >= 2, 'the live event');
        await subscription.stop();
        assert.deepEqual(seen.map((e) => e.type), ['C', 'D']);
      });

      it('calls the handler one event at a time, in position order', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('E0'), newEvent('E1')], 'no_stream');
        let running = 0;
        let overlapped = false;
        const seen: RecordedEvent[] = [];
        const subscription = store.subscribeToAll({}, async (event) => {
          if (event.streamName !== stream) return;
          running += 1;
          if (running > 1) overlapped = true;
          await sleep(15);
          seen.push(event);
          running -= 1;
        });
        for (let i = 2; i < 6; i += 1) await store.appendToStream(stream, [newEvent(`E${i}`)], BigInt(i - 1));
        await waitUntil(() => seen.length === 6, 'six events');
        await subscription.stop();
        assert.equal(overlapped, false);
        assert.deepEqual(seen.map((e) => e.type), ['E0', 'E1', 'E2', 'E3', 'E4', 'E5']);
        for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i].position > seen[i - 1].position);
      });

      it('stop() waits for the running handler and ends delivery', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('First')], 'no_stream');
        const seen: string[] = [];
        let handlerFinished = false;
        let entered = false;
        const subscription = store.subscribeToAll({}, async (event) => {
          if (event.streamName !== stream) return;
          entered = true;
          await sleep(100);
          seen.push(event.type);
          handlerFinished = true;
        });
        await waitUntil(() => entered, 'the handler to start');
        await subscription.stop();
        assert.equal(handlerFinished, true, 'stop() resolved while the handler was still running');
        await store.appendToStream(stream, [newEvent('AfterStop')], 0n);
        await sleep(500);
        assert.deepEqual(seen, ['First']);
      });

      it('delivers the appends of several connections racing each other once each, in position order', async () => {
        const writers = [store, await again(), await again()];
        const reader = await again();
        const prefix = uniqueStream('race');
        const seen: RecordedEvent[] = [];
        const subscription = reader.subscribeToAll({}, async (event) => {
          if (event.streamName.startsWith(prefix)) seen.push(event);
        });
        const appended = await Promise.all(
          writers.flatMap((writer, w) =>
            Array.from({ length: 15 }, (_, i) => writer.appendToStream(`${prefix}-${w}-${i}`, [newEvent('Raced'), newEvent('Raced')], 'no_stream')),
          ),
        );
        const last = appended.reduce((max, result) => (result.position > max ? result.position : max), 0n);
        await waitUntil(() => seen.some((e) => e.position === last), 'the last appended event', 10_000);
        await subscription.stop();
        assert.equal(seen.length, writers.length * 15 * 2, 'every event exactly once');
        assert.equal(new Set(seen.map((e) => e.id)).size, seen.length, 'no event twice');
        for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i].position > seen[i - 1].position, `delivered in position order at ${i}`);
      });

      const slowCommits = options.slowCommits;
      if (slowCommits) {
        it('never lets a subscriber pass an append that took its position and committed late', async function () {
          this.timeout(30_000);
          const [slowWriter, fastWriter, reader] = [store, await again(), await again()];
          const prefix = uniqueStream('late');
          const seen: RecordedEvent[] = [];
          const subscription = reader.subscribeToAll({}, async (event) => {
            if (event.streamName.startsWith(prefix)) seen.push(event);
          });
          const slow = slowWriter.appendToStream(`${prefix}-slow`, [newEvent(slowCommits.type)], 'no_stream');
          await waitUntilAsync(() => slowCommits.committing(), 'the slow append to take its position');
          // These run while the slow one is uncommitted: on a plain sequence they take greater positions and
          // commit first, and a subscriber reading `position > last` moves past the slow one for good.
          const fast = await Promise.all(Array.from({ length: 5 }, (_, i) => fastWriter.appendToStream(`${prefix}-fast-${i}`, [newEvent('Fast')], 'no_stream')));
          const late = await slow;
          const all = [late, ...fast];
          const last = all.reduce((max, result) => (result.position > max ? result.position : max), 0n);
          await waitUntil(() => seen.some((e) => e.position === last), 'the last appended event', 10_000);
          await subscription.stop();
          assert.deepEqual(
            seen.map((e) => e.position).sort((x, y) => (x < y ? -1 : 1)),
            all.map((r) => r.position).sort((x, y) => (x < y ? -1 : 1)),
            'the subscriber saw every append, the slow one included',
          );
          for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i].position > seen[i - 1].position, `delivered in position order at ${i}`);
        });
      }

      it('reports a failing handler through onError and delivers nothing more', async () => {
        const stream = uniqueStream();
        await store.appendToStream(stream, [newEvent('Poison'), newEvent('Next')], 'no_stream');
        const errors: Error[] = [];
        const seen: string[] = [];
        const subscription = store.subscribeToAll({ onError: (e) => errors.push(e) }, async (event) => {
          if (event.streamName !== stream) return;
          seen.push(event.type);
          if (event.type === 'Poison') throw new Error('handler failed');
        });
        await waitUntil(() => errors.length === 1, 'onError');
        await store.appendToStream(stream, [newEvent('Later')], 1n);
        await sleep(300);
        await subscription.stop();
        assert.equal(errors[0].message, 'handler failed');
        assert.deepEqual(seen, ['Poison']);
      });
    });
  });
}
