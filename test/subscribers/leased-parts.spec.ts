import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CheckpointStore, type Lease, LeaseLost } from '../../src/adapters/checkpoint-store/port';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import { partOf } from '../../src/subscribers/background/background-part';
import { LeasedPart } from '../../src/subscribers/background/leased-part';
import { SubscriberRunner } from '../../src/subscribers/subscriber-runner';
import { recordingLogger, temporarySqliteStore, waitFor } from './support';

const TIMING = { ttlMs: 600, renewEveryMs: 150, retryEveryMs: 150 };

/** A process's view of the shared checkpoint store, whose link to it the test can cut (as a pause or a lost network would). */
class Cuttable implements CheckpointStore {
  cut = false;
  constructor(private readonly store: CheckpointStore) {}
  private check(): void {
    if (this.cut) throw new Error('the store cannot be reached');
  }
  loadCheckpoint(name: string) {
    this.check();
    return this.store.loadCheckpoint(name);
  }
  saveCheckpoint(name: string, position: bigint, holder?: Lease) {
    this.check();
    return this.store.saveCheckpoint(name, position, holder);
  }
  acquireLease(name: string, owner: string, ttlMs: number) {
    this.check();
    return this.store.acquireLease(name, owner, ttlMs);
  }
  renewLease(lease: Lease, ttlMs: number) {
    this.check();
    return this.store.renewLease(lease, ttlMs);
  }
  releaseLease(lease: Lease) {
    this.check();
    return this.store.releaseLease(lease);
  }
  readLease(name: string) {
    return this.store.readLease(name);
  }
  close() {
    return this.store.close();
  }
}

describe('leased parts: one process at a time runs each, a standby takes over, a stale holder is fenced', function () {
  this.timeout(30_000);
  let dir: string;
  let file: string;
  const opened: CheckpointStore[] = [];
  const storeOfAProcess = () => {
    const store = new Cuttable(new SqliteCheckpointStore(file));
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'leased-parts-'));
    file = path.join(dir, 'checkpoints.sqlite3');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('the standby takes the part over within two lease periods when the holder stops renewing, and the two never run it at once', async () => {
    const timeline: { owner: string; what: 'start' | 'stop'; atMs: number }[] = [];
    const part = (owner: string) =>
      partOf(
        'sweep',
        () => {
          timeline.push({ owner, what: 'start', atMs: Date.now() });
          return { stop: async () => void timeline.push({ owner, what: 'stop', atMs: Date.now() }) };
        },
        { lease: 'sweep' },
      );
    const { log } = recordingLogger();
    const storeA = storeOfAProcess();
    const a = new LeasedPart({ ...part('a'), lease: 'sweep' }, storeA, 'a', TIMING, log);
    const b = new LeasedPart({ ...part('b'), lease: 'sweep' }, storeOfAProcess(), 'b', TIMING, log);
    await a.start();
    await b.start();
    assert.equal(a.holds, true);
    assert.equal(b.holds, false, 'the second process stands by');

    const cutAtMs = Date.now();
    storeA.cut = true; // a's renewals stop reaching the store
    await waitFor(() => b.holds, 'the standby to take over');
    const tookOverMs = Date.now() - cutAtMs;
    assert.ok(tookOverMs <= 2 * TIMING.ttlMs + TIMING.retryEveryMs, `taken over after ${tookOverMs} ms (two lease periods: ${2 * TIMING.ttlMs} ms)`);
    await waitFor(() => !a.holds, 'the old holder to stop');
    const aStopped = timeline.find((e) => e.owner === 'a' && e.what === 'stop')!;
    const bStarted = timeline.find((e) => e.owner === 'b' && e.what === 'start')!;
    assert.ok(aStopped.atMs <= bStarted.atMs, 'the old holder stopped before the new one started');
    assert.ok(b.history[0]!.epoch > a.history[0]!.epoch, 'a new holding has a greater epoch');
    await a.stop();
    await b.stop();
  });

  it('a holder that lost its lease handles no more events and cannot move the checkpoint; its successor goes on from it', async () => {
    const events = temporarySqliteStore();
    try {
      const { log } = recordingLogger();
      const handled: { owner: string; position: bigint }[] = [];
      const runnerPart = (owner: string, store: CheckpointStore) =>
        partOf(
          'settle',
          async (holding) => {
            const runner = new SubscriberRunner(events.store, store, { name: 'settle', handle: async (_e, r) => void handled.push({ owner, position: r.position }) }, log, undefined, holding);
            await runner.start();
            return runner;
          },
          { lease: 'settle' },
        );
      const append = () => events.store.appendToStream(`team-${randomUUID()}`, [{ id: randomUUID(), type: 'TeamCreated', data: { team_id: 't', name: 'n', daily_bot_cap: 10, rate_limit_per_second: 10, at: new Date().toISOString() } }], 'no_stream');
      const storeA = storeOfAProcess();
      const storeB = storeOfAProcess();
      const a = new LeasedPart({ ...runnerPart('a', storeA), lease: 'settle' }, storeA, 'a', TIMING, log);
      const b = new LeasedPart({ ...runnerPart('b', storeB), lease: 'settle' }, storeB, 'b', TIMING, log);
      await a.start();
      await b.start();
      const first = await append();
      await waitFor(() => handled.some((h) => h.position === first.position), 'the holder to handle the first event');
      await waitFor(async () => (await storeB.loadCheckpoint('subscriber:settle')) === first.position, 'its checkpoint');
      const aLease = a.history[0]!;

      storeA.cut = true;
      await waitFor(() => !a.holds, 'the holder to notice');
      const afterLoss = await append();
      await waitFor(() => b.holds, 'the standby to take over');
      await waitFor(() => handled.some((h) => h.position === afterLoss.position), 'the successor to handle the next event');
      assert.deepEqual(handled.filter((h) => h.position === afterLoss.position).map((h) => h.owner), ['b'], 'only the new holder handled it');
      assert.equal(handled.filter((h) => h.position === first.position).length, 1, 'the successor went on from the saved checkpoint');

      // The old holder's lease, presented now (its link back), is refused: it cannot put the checkpoint anywhere.
      storeA.cut = false;
      const stale: Lease = { name: 'settle', owner: 'a', epoch: aLease.epoch, expiresAt: new Date() };
      await assert.rejects(storeA.saveCheckpoint('subscriber:settle', first.position + 100n, stale), LeaseLost);
      await a.stop();
      await b.stop();
      assert.equal(await storeB.loadCheckpoint('subscriber:settle'), afterLoss.position, 'the checkpoint is the new holder’s');
    } finally {
      await events.dispose();
    }
  });
});
