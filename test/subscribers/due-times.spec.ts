import assert from 'node:assert/strict';
import { DueTimes } from '../../src/subscribers/due-times';

describe('DueTimes: keys by due time, earliest first', () => {
  it('takes out what is due, earliest first, and among equal times in the order they were set', () => {
    const due = new DueTimes();
    due.set('c', 30);
    due.set('a', 10);
    due.set('b2', 20);
    due.set('b1', 20);
    due.set('later', 100);
    assert.equal(due.earliest(), 10);
    assert.deepEqual(due.takeDue(30, 10, () => false), ['a', 'b2', 'b1', 'c']);
    assert.deepEqual(due.takeDue(99, 10, () => false), []);
    assert.equal(due.size, 1);
    assert.equal(due.earliest(), 100);
  });

  it('takes at most `limit`, leaves the skipped ones due as they were', () => {
    const due = new DueTimes();
    for (const [key, at] of [['a', 1], ['b', 2], ['c', 3], ['d', 4]] as const) due.set(key, at);
    assert.deepEqual(due.takeDue(10, 2, (k) => k === 'a'), ['b', 'c']);
    assert.deepEqual(due.takeDue(10, 5, () => false), ['a', 'd']);
  });

  it('a key set again moves to its new time; a deleted key is never taken', () => {
    const due = new DueTimes();
    due.set('moved', 5);
    due.set('gone', 6);
    due.set('stays', 7);
    due.set('moved', 50);
    due.delete('gone');
    assert.equal(due.dueOf('moved'), 50);
    assert.equal(due.has('gone'), false);
    assert.deepEqual(due.takeDue(10, 10, () => false), ['stays']);
    assert.deepEqual(due.takeDue(50, 10, () => false), ['moved']);
    assert.equal(due.earliest(), undefined);
  });

  it('many far-off keys set again and deleted leave no pile of stale entries behind', () => {
    const due = new DueTimes();
    for (let i = 0; i < 10_000; i++) {
      due.set(`k${i}`, 1_000_000 + i);
      due.set(`k${i}`, 2_000_000 + i);
      if (i % 2 === 0) due.delete(`k${i}`);
    }
    assert.equal(due.size, 5000);
    const heapLength = (due as unknown as { heap: unknown[] }).heap.length;
    assert.ok(heapLength <= 2 * due.size + 64, `heap of ${heapLength} entries for ${due.size} keys`);
    const taken = due.takeDue(Number.MAX_SAFE_INTEGER, 10_000, () => false);
    assert.equal(taken.length, 5000);
    assert.deepEqual(taken.slice(0, 3), ['k1', 'k3', 'k5']);
  });
});
