import assert from 'node:assert/strict';
import { PersistentMap } from '../../src/domain/persistent/persistent-map';
import { TimeWindow, type Timed } from '../../src/domain/persistent/time-window';

/** A small deterministic generator (mulberry32), so that a failure replays. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('persistent collections of the domain state (immutable, O(log n) per change)', () => {
  describe('PersistentMap', () => {
    it('given any sequence of sets and deletes, then it reads like a Map, in insertion order, and every earlier version is unchanged', () => {
      const next = random(23);
      let map = PersistentMap.empty<number>();
      const model = new Map<string, number>();
      const versions: Array<{ map: PersistentMap<number>; entries: [string, number][] }> = [];
      for (let step = 0; step < 2000; step++) {
        const key = `k${Math.floor(next() * 300)}`;
        if (next() < 0.65) {
          map = map.set(key, step);
          model.set(key, step);
        } else {
          map = map.delete(key);
          model.delete(key);
        }
        if (step % 97 === 0) versions.push({ map, entries: [...model.entries()] });
        assert.equal(map.size, model.size);
        assert.equal(map.get(key), model.get(key));
        assert.equal(map.has(key), model.has(key));
      }
      assert.deepEqual([...map.entries()], [...model.entries()]);
      assert.deepEqual([...map.keys()], [...model.keys()]);
      for (const version of versions) assert.deepEqual([...version.map], version.entries);
    });

    it('given a key set again, then it keeps its first place in the order', () => {
      const map = PersistentMap.of([['a', 1], ['b', 2]]).set('a', 3);
      assert.deepEqual([...map], [['a', 3], ['b', 2]]);
    });
  });

  describe('TimeWindow', () => {
    const sorted = (items: Iterable<Timed>) => [...items].sort((a, b) => a.at_ms - b.at_ms || (a.bot_id < b.bot_id ? -1 : a.bot_id > b.bot_id ? 1 : 0));

    it('given adds out of time order, removals and forgetting, then it answers like a sorted list, and earlier versions are unchanged', () => {
      const next = random(5);
      let window = TimeWindow.empty<Timed>();
      let model: Timed[] = [];
      const versions: Array<{ window: TimeWindow<Timed>; items: Timed[] }> = [];
      for (let step = 0; step < 1500; step++) {
        const roll = next();
        if (roll < 0.6) {
          const item = { bot_id: `bot-${step}`, at_ms: step * 10 + Math.floor(next() * 200) - 100 };
          window = window.add(item);
          model = sorted([...model, item]);
        } else if (roll < 0.8 && model.length > 0) {
          const gone = model[Math.floor(next() * model.length)]!;
          window = window.remove(gone.bot_id);
          model = model.filter((m) => m.bot_id !== gone.bot_id);
        } else {
          const upTo = step * 10 - 800;
          window = window.forgetUpTo(upTo);
          model = model.filter((m) => m.at_ms > upTo);
        }
        const probe = step * 10 - Math.floor(next() * 600);
        assert.equal(window.length, model.length);
        assert.equal(window.countAfter(probe), model.filter((m) => m.at_ms > probe).length);
        assert.deepEqual(window.firstAfter(probe), model.find((m) => m.at_ms > probe));
        for (const item of model.slice(0, 3)) assert.ok(window.has(item.bot_id) && window.get(item.bot_id) === item);
        if (step % 101 === 0) versions.push({ window, items: model });
      }
      assert.deepEqual([...window], model);
      for (const version of versions) assert.deepEqual([...version.window], version.items);
      for (const forgotten of versions[0]!.items) if (!model.includes(forgotten)) assert.equal(window.has(forgotten.bot_id), false);
    });
  });
});
