import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CheckpointStore, type Lease, LeaseLost } from '../../src/adapters/checkpoint-store/port';
import { storePerTest } from '../support/store-per-test';

/** Unique per test, so that the suite can run against a shared server. */
const uniqueName = (prefix: string): string => `${prefix}-${randomBytes(6).toString('hex')}`;

const waitUntil = async (condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
};

/**
 * Runs `action` while this process's clock (Date and Date.now) is `offsetMs` off, as on a machine whose
 * clock drifted: a store that computed expiries on the caller's clock would be fooled.
 */
const withCallerClockOff = async <T>(offsetMs: number, action: () => Promise<T>): Promise<T> => {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      else super(...(args as [number]));
    }
    static override now(): number {
      return RealDate.now() + offsetMs;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
  try {
    return await action();
  } finally {
    globalThis.Date = RealDate;
  }
};

const HOUR = 60 * 60_000;
/** Long enough that it never lapses during a test that does not wait for it. */
const LONG_TTL = 60_000;
/** Short enough that a test waits for it to lapse. */
const SHORT_TTL = 300;

export interface CheckpointStoreContractOptions {
  readonly make: () => Promise<CheckpointStore>;
  /** Another connection to the same store as `store`: another process, in production. */
  readonly openAgain: (store: CheckpointStore) => Promise<CheckpointStore>;
  readonly cleanup?: () => Promise<void>;
}

export function checkpointStoreContract(name: string, options: CheckpointStoreContractOptions): void {
  describe(`checkpoint store contract: ${name}`, function () {
    this.timeout(30_000);
    const stores = storePerTest(options.make, options.openAgain, options.cleanup);
    /** Another process on the same store; closed after the test. */
    const another = stores.another;
    let store: CheckpointStore;
    beforeEach(() => {
      store = stores.current();
    });

    describe('checkpoints', () => {
      it('has none at first, keeps the greatest saved per name, exactly beyond 2^53, for every connection', async () => {
        const [webhooks, settler] = [uniqueName('webhooks'), uniqueName('settler')];
        assert.equal(await store.loadCheckpoint(webhooks), null);
        await store.saveCheckpoint(webhooks, 5n);
        await store.saveCheckpoint(webhooks, 9n);
        await store.saveCheckpoint(settler, 2n ** 60n + 1n);
        const other = await another();
        assert.equal(await other.loadCheckpoint(webhooks), 9n);
        assert.equal(await other.loadCheckpoint(settler), 2n ** 60n + 1n);
      });

      it('never moves backwards, also when saves from several connections race', async () => {
        const checkpoint = uniqueName('forward');
        await store.saveCheckpoint(checkpoint, 42n);
        await store.saveCheckpoint(checkpoint, 41n);
        assert.equal(await store.loadCheckpoint(checkpoint), 42n);
        const writers = [store, await another(), await another()];
        await Promise.all([60n, 44n, 59n, 43n, 58n, 45n, 57n, 46n, 50n].map((position, i) => writers[i % writers.length]!.saveCheckpoint(checkpoint, position)));
        assert.equal(await store.loadCheckpoint(checkpoint), 60n);
      });
    });

    describe('leases', () => {
      it('is taken when free, read back, renewed by its holder at the same epoch, and refused to another owner', async () => {
        const lease = uniqueName('webhook-delivery');
        assert.equal(await store.readLease(lease), null);
        const held = await store.acquireLease(lease, 'api-1', LONG_TTL);
        assert.ok(held);
        assert.deepEqual([held.name, held.owner], [lease, 'api-1']);
        assert.deepEqual(await (await another()).readLease(lease), held);
        assert.equal(await (await another()).acquireLease(lease, 'api-2', LONG_TTL), null);
        const renewed = await store.renewLease(held, LONG_TTL);
        assert.ok(renewed);
        assert.equal(renewed.epoch, held.epoch);
        assert.ok(renewed.expiresAt >= held.expiresAt);
        const again = await store.acquireLease(lease, 'api-1', LONG_TTL);
        assert.equal(again?.epoch, held.epoch, 'its holder acquiring again is a renewal');
      });

      it('lets exactly one of several contenders take a free lease, and one take an expired one', async () => {
        const stores = [store, await another(), await another(), await another()];
        for (let round = 0; round < 5; round += 1) {
          const lease = uniqueName('race');
          const results = await Promise.all(stores.map((s, i) => s.acquireLease(lease, `owner-${i}`, SHORT_TTL)));
          const winners = results.filter((r): r is Lease => r !== null);
          assert.equal(winners.length, 1, `round ${round}: ${JSON.stringify(results)}`);
          await waitUntil(async () => (await store.readLease(lease)) === null, 'the lease to lapse');
          const takeover = await Promise.all(stores.map((s, i) => s.acquireLease(lease, `owner-${i}`, LONG_TTL)));
          const next = takeover.filter((r): r is Lease => r !== null);
          assert.equal(next.length, 1, `round ${round}, after expiry: ${JSON.stringify(takeover)}`);
          assert.ok(next[0]!.epoch > winners[0]!.epoch, 'a new holding has a greater epoch');
        }
      });

      it('never has two holders at once while contenders keep acquiring, renewing and letting it lapse', async () => {
        const lease = uniqueName('churn');
        const ttl = 80;
        const seen: Lease[] = [];
        const contender = async (s: CheckpointStore, owner: string) => {
          for (let i = 0; i < 25; i += 1) {
            let held = await s.acquireLease(lease, owner, ttl);
            if (held === null) {
              await sleep(5 + ((i * 7) % 20));
              continue;
            }
            for (let renewals = i % 3; held && renewals > 0; renewals -= 1) {
              seen.push(held);
              await sleep(10);
              held = await s.renewLease(held, ttl);
            }
            if (held) seen.push(held);
            // Goes quiet, as a holder that stalls: its lease lapses and another takes it.
            await sleep(2 * ttl);
          }
        };
        const stores = [store, await another(), await another()];
        await Promise.all(stores.map((s, i) => contender(s, `owner-${i}`)));
        // Each holding spans from its store time of taking (expiry - ttl) to its last expiry.
        const holdings = new Map<number, { owner: string; from: number; to: number }>();
        for (const { owner, epoch, expiresAt } of seen) {
          const at = expiresAt.getTime();
          const known = holdings.get(epoch);
          if (known) {
            assert.equal(known.owner, owner, `epoch ${epoch} has one owner`);
            known.from = Math.min(known.from, at - ttl);
            known.to = Math.max(known.to, at);
          } else holdings.set(epoch, { owner, from: at - ttl, to: at });
        }
        const ordered = [...holdings.entries()].sort(([a], [b]) => a - b);
        assert.ok(ordered.length >= 3, `the lease changed hands (${ordered.length} holdings)`);
        for (let i = 1; i < ordered.length; i += 1) {
          const [[previousEpoch, previous], [epoch, current]] = [ordered[i - 1]!, ordered[i]!];
          assert.ok(current.from >= previous.to, `epoch ${epoch} began (${current.from}) before epoch ${previousEpoch} ended (${previous.to})`);
        }
      });

      it('lets a standby take over once the holder stops renewing, and fences the old holder out', async () => {
        const lease = uniqueName('projector');
        const checkpoint = uniqueName('subscriber');
        const standbyStore = await another();
        const old = await store.acquireLease(lease, 'api-1', SHORT_TTL);
        assert.ok(old);
        await store.saveCheckpoint(checkpoint, 10n, old);
        assert.equal(await standbyStore.acquireLease(lease, 'api-2', LONG_TTL), null);
        let standby: Lease | null = null;
        await waitUntil(async () => (standby = await standbyStore.acquireLease(lease, 'api-2', LONG_TTL)) !== null, 'the standby to take over');
        assert.ok(standby!.epoch > old.epoch);
        assert.equal(await store.renewLease(old, LONG_TTL), null, 'the old holder cannot renew');
        await assert.rejects(store.saveCheckpoint(checkpoint, 20n, old), LeaseLost);
        assert.equal(await store.loadCheckpoint(checkpoint), 10n, "the old holder's save was refused");
        await standbyStore.saveCheckpoint(checkpoint, 15n, standby!);
        assert.equal(await store.loadCheckpoint(checkpoint), 15n);
        await standbyStore.saveCheckpoint(checkpoint, 12n, standby!);
        assert.equal(await store.loadCheckpoint(checkpoint), 15n, 'the holder cannot move it backwards either');
        assert.deepEqual(await store.readLease(lease), standby);
      });

      it('refuses a save with a lease that expired, even if no one took it, or that was released', async () => {
        const checkpoint = uniqueName('subscriber');
        const lapsing = await store.acquireLease(uniqueName('lapsing'), 'api-1', SHORT_TTL);
        assert.ok(lapsing);
        await waitUntil(async () => (await store.readLease(lapsing.name)) === null, 'the lease to lapse');
        await assert.rejects(store.saveCheckpoint(checkpoint, 1n, lapsing), LeaseLost);
        assert.equal(await store.renewLease(lapsing, LONG_TTL), null);
        const released = await store.acquireLease(uniqueName('released'), 'api-1', LONG_TTL);
        assert.ok(released);
        await store.releaseLease(released);
        await assert.rejects(store.saveCheckpoint(checkpoint, 1n, released), LeaseLost);
        assert.equal(await store.loadCheckpoint(checkpoint), null);
      });

      it('is free at once when released, and taken again at a greater epoch', async () => {
        const lease = uniqueName('released');
        const first = await store.acquireLease(lease, 'api-1', LONG_TTL);
        assert.ok(first);
        await store.releaseLease(first);
        assert.equal(await store.readLease(lease), null);
        const second = await (await another()).acquireLease(lease, 'api-2', LONG_TTL);
        assert.ok(second && second.epoch > first.epoch);
        await store.releaseLease(first);
        assert.deepEqual(await store.readLease(lease), second, "a release by a former holder changes nothing");
        const mine = await store.acquireLease(lease, 'api-1', LONG_TTL);
        assert.equal(mine, null);
      });

      it('keeps time by the store: a caller whose clock is an hour off neither steals a lease nor keeps one past its expiry', async () => {
        const lease = uniqueName('skew');
        const holder = await store.acquireLease(lease, 'on-time', SHORT_TTL);
        assert.ok(holder);
        const aheadStore = await another();
        // An hour ahead, the holder's lease looks long expired to a caller that trusts its own clock.
        const stolen = await withCallerClockOff(HOUR, () => aheadStore.acquireLease(lease, 'clock-ahead', LONG_TTL));
        assert.equal(stolen, null);
        // An hour behind, a lease taken now looks valid for an hour more to such a caller.
        await waitUntil(async () => (await store.readLease(lease)) === null, 'the lease to lapse');
        const behind = await withCallerClockOff(-HOUR, () => aheadStore.acquireLease(lease, 'clock-behind', SHORT_TTL));
        assert.ok(behind);
        assert.ok(Math.abs(behind.expiresAt.getTime() - (Date.now() + SHORT_TTL)) < 10 * 60_000, `expiry ${behind.expiresAt.toISOString()} is on the store's clock`);
        await waitUntil(async () => (await store.readLease(lease)) === null, 'the lease to lapse by the store clock');
        const taken = await store.acquireLease(lease, 'on-time', LONG_TTL);
        assert.ok(taken && taken.epoch > behind.epoch);
        assert.equal(await withCallerClockOff(-HOUR, () => aheadStore.renewLease(behind, LONG_TTL)), null);
      });
    });
  });
}
