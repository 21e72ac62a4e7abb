import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { SharedState } from '../../src/adapters/shared-state/port';

const unique = (prefix: string): string => `${prefix}-${randomBytes(6).toString('hex')}`;

export interface SharedStateFactory {
  /** a store on the shared storage; several made by one test share it (as processes on several machines) */
  make(): Promise<SharedState>;
  cleanup?(): Promise<void>;
}

/** What every shared-state store must do, whichever the storage. */
export const sharedStateContract = (name: string, factory: SharedStateFactory): void => {
  describe(`shared state contract: ${name}`, function () {
    this.timeout(60_000);
    const opened: SharedState[] = [];
    const open = async () => {
      const store = await factory.make();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });
    after(async () => factory.cleanup?.());

    it('counts a window up from 1, each window and name on its own', async () => {
      const store = await open();
      const name = unique('team');
      assert.deepEqual([await store.countUp(name, 10), await store.countUp(name, 10), await store.countUp(name, 10)], [1, 2, 3]);
      assert.equal(await store.countUp(name, 11), 1, 'the next window starts again');
      assert.equal(await store.countUp(unique('other'), 10), 1, 'another name has its own count');
    });

    it('gives every number once when processes count the same window at the same time', async () => {
      const [a, b, c] = [await open(), await open(), await open()];
      const name = unique('team');
      const counts = await Promise.all(Array.from({ length: 30 }, (_, i) => [a, b, c][i % 3]!.countUp(name, 7)));
      assert.deepEqual([...counts].sort((x, y) => x - y), Array.from({ length: 30 }, (_, i) => i + 1));
    });

    it('forgets windows before a given one, and only those', async () => {
      const store = await open();
      const name = unique('team');
      await store.countUp(name, 1);
      await store.countUp(name, 1);
      await store.countUp(name, 5);
      await store.dropWindowsBefore(5);
      assert.equal(await store.countUp(name, 1), 1, 'window 1 was forgotten');
      assert.equal(await store.countUp(name, 5), 2, 'window 5 was kept');
    });

    it("keeps each bot's last contact, seen by every process", async () => {
      const [a, b] = [await open(), await open()];
      const [one, two, never] = [unique('bot'), unique('bot'), unique('bot')];
      await a.noteContact(one, 1_000);
      await b.noteContact(two, 2_000);
      await b.noteContact(one, 3_000);
      const seen = await a.lastContacts([one, two, never]);
      assert.equal(seen.get(one), 3_000);
      assert.equal(seen.get(two), 2_000);
      assert.equal(seen.has(never), false, 'a bot that never called has no contact');
      assert.equal((await a.lastContacts([])).size, 0);
    });
  });
};
