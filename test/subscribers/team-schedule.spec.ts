import assert from 'node:assert/strict';
import { TeamSchedule } from '../../src/subscribers/team-schedule';

describe("TeamSchedule: one team's scheduled bots in the order they are queued", () => {
  it('orders by due time, then by the order they were set; a bot set again takes its new place', () => {
    const schedule = new TeamSchedule();
    schedule.set('late', 300);
    schedule.set('first-at-100', 100);
    schedule.set('second-at-100', 100);
    schedule.set('moved', 50);
    schedule.set('moved', 200);
    schedule.set('gone', 10);
    schedule.delete('gone');
    const order: string[] = [];
    for (let id = schedule.takeHead(); id !== undefined; id = schedule.takeHead()) order.push(id);
    assert.deepEqual(order, ['first-at-100', 'second-at-100', 'moved', 'late']);
    assert.equal(schedule.size, 0);
    assert.equal(schedule.has('late'), false);
  });

  it('a lone bot starts one queueing before its due time', () => {
    const schedule = new TeamSchedule();
    schedule.set('a', 10_000);
    assert.equal(schedule.startTime(20), 9_980);
  });

  it('a burst due at one instant starts early enough for its last bot to be queued by then', () => {
    const schedule = new TeamSchedule();
    for (let i = 0; i < 1000; i++) schedule.set(`b${i}`, 60_000);
    assert.equal(schedule.startTime(5), 60_000 - 1000 * 5);
  });

  it('a burst later than a lone bot: the earliest of what each needs', () => {
    const schedule = new TeamSchedule();
    schedule.set('lone', 1_000);
    for (let i = 0; i < 100; i++) schedule.set(`b${i}`, 2_000);
    // The lone bot needs 990; the burst needs 2000 - 101 * 10 = 990 as well; one more bot tips it.
    assert.equal(schedule.startTime(10), 990);
    schedule.set('b100', 2_000);
    assert.equal(schedule.startTime(10), 980);
  });
});
