import assert from 'node:assert/strict';
import type { DataKeyStore } from '../../src/adapters/data-keys/port';

export interface DataKeyStoreUnderTest {
  readonly store: DataKeyStore;
  /** another instance over the same storage (another process, another service instance) */
  readonly another: () => Promise<DataKeyStore>;
  readonly cleanup: () => Promise<void>;
}

/** What every data key store must do: one key per owner, kept, and destroyed for good with its tombstone. */
export function dataKeyStoreContract(name: string, make: () => Promise<DataKeyStoreUnderTest>): void {
  describe(`data key store contract: ${name}`, () => {
    let subject: DataKeyStoreUnderTest;
    beforeEach(async () => {
      subject = await make();
    });
    afterEach(async () => {
      await subject.store.close();
      await subject.cleanup();
    });

    it('given no key, when one is asked for to seal, then it is 32 bytes, the same every time and in every instance', async () => {
      assert.deepEqual(await subject.store.lookup('bot-1'), { state: 'none' });
      const key = await subject.store.keyToSeal('bot-1');
      assert.equal(key?.length, 32);
      assert.deepEqual(await subject.store.keyToSeal('bot-1'), key);
      assert.deepEqual(await subject.store.lookup('bot-1'), { state: 'live', key });
      assert.notDeepEqual(await subject.store.keyToSeal('bot-2'), key, 'a key per owner');
      const other = await subject.another();
      try {
        assert.deepEqual(await other.keyToSeal('bot-1'), key);
      } finally {
        await other.close();
      }
    });

    it('given two instances asking at once for a new owner, then both get the one same key', async () => {
      const other = await subject.another();
      try {
        const [a, b] = await Promise.all([subject.store.keyToSeal('bot-race'), other.keyToSeal('bot-race')]);
        assert.deepEqual(a, b);
      } finally {
        await other.close();
      }
    });

    it('given a live key, when it is destroyed, then it is gone for good, in every instance, and never made again', async () => {
      await subject.store.keyToSeal('bot-3');
      const other = await subject.another();
      try {
        assert.equal((await other.lookup('bot-3')).state, 'live');
        await subject.store.destroy('bot-3', '2026-03-03T10:00:00.000Z');
        assert.deepEqual(await other.lookup('bot-3'), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
        assert.equal(await other.keyToSeal('bot-3'), null);
        assert.equal(await subject.store.keyToSeal('bot-3'), null);
      } finally {
        await other.close();
      }
    });

    it('given an owner that never had a key (events written before keys), when destroyed, then its tombstone says so', async () => {
      await subject.store.destroy('bot-old', '2026-03-03T10:00:00.000Z');
      assert.deepEqual(await subject.store.lookup('bot-old'), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
      assert.equal(await subject.store.keyToSeal('bot-old'), null);
    });

    it('given a destroyed key, when destroyed again, then the first time stays (idempotent)', async () => {
      await subject.store.keyToSeal('bot-4');
      await subject.store.destroy('bot-4', '2026-03-03T10:00:00.000Z');
      await subject.store.destroy('bot-4', '2026-03-04T10:00:00.000Z');
      assert.deepEqual(await subject.store.lookup('bot-4'), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
    });
  });
}
