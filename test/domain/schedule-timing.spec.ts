import assert from 'node:assert/strict';
import {
  joinAtProblem, MAX_START_DELAY_MS, missedTimeMessage, queueingTimeOf, SCHEDULED_BOT_LEAD_MS, startVerdict,
} from '../../src/domain/bot/schedule-timing';
import { at } from './given-when-then';

const JOIN_AT = '2026-03-02T09:00:00.000Z';
const joinAtMs = Date.parse(JOIN_AT);

describe('schedule timing', () => {
  describe('when a scheduled bot is handed to a slot', () => {
    it('given join_at, then it is queued the lead time before it', () => {
      assert.equal(queueingTimeOf(JOIN_AT), joinAtMs - SCHEDULED_BOT_LEAD_MS);
    });

    it('given a time before the queueing time, then it waits until then', () => {
      assert.deepEqual(startVerdict(JOIN_AT, at(JOIN_AT, { m: -10 })), { kind: 'wait', untilMs: joinAtMs - SCHEDULED_BOT_LEAD_MS });
      assert.deepEqual(startVerdict(JOIN_AT, at(JOIN_AT, { ms: -SCHEDULED_BOT_LEAD_MS - 1 })), { kind: 'wait', untilMs: joinAtMs - SCHEDULED_BOT_LEAD_MS });
    });

    it('given the queueing time, or join_at itself, then it starts', () => {
      assert.deepEqual(startVerdict(JOIN_AT, at(JOIN_AT, { ms: -SCHEDULED_BOT_LEAD_MS })), { kind: 'start' });
      assert.deepEqual(startVerdict(JOIN_AT, JOIN_AT), { kind: 'start' });
    });

    it('given a service that was down at join_at and back less than 5 minutes later, then it starts at once', () => {
      assert.deepEqual(startVerdict(JOIN_AT, at(JOIN_AT, { m: 4, s: 59, ms: 999 })), { kind: 'start' });
    });

    it('given 5 minutes late or more, then it is missed, with how late', () => {
      assert.deepEqual(startVerdict(JOIN_AT, at(JOIN_AT, { m: 5 })), { kind: 'missed', lateMs: MAX_START_DELAY_MS });
      assert.deepEqual(startVerdict(JOIN_AT, at(JOIN_AT, { h: 3 })), { kind: 'missed', lateMs: 3 * 3_600_000 });
    });

    it('the message of a missed bot says when it was due and how late the service was', () => {
      assert.equal(
        missedTimeMessage(JOIN_AT, 12 * 60_000 + 5_000),
        'The bot was scheduled to join at 2026-03-02T09:00:00.000Z, but the service could only start it 12 min 5 s later ' +
          '(it was not running at that time); a scheduled bot more than 5 minutes late does not join.',
      );
    });
  });

  describe('which join_at a bot may be scheduled for', () => {
    const NOW = '2026-03-02T08:00:00.000Z';
    it('a time in the future, up to one calendar year ahead', () => {
      assert.equal(joinAtProblem(at(NOW, { ms: 1 }), NOW), null);
      assert.equal(joinAtProblem('2027-03-02T08:00:00.000Z', NOW), null);
    });
    it('not now nor before', () => {
      assert.match(joinAtProblem(NOW, NOW) ?? '', /^must be in the future/);
      assert.match(joinAtProblem(at(NOW, { h: -1 }), NOW) ?? '', /^must be in the future/);
    });
    it('not more than a year ahead', () => {
      assert.equal(joinAtProblem('2027-03-02T08:00:00.001Z', NOW), 'must be at most one year ahead (at most 2027-03-02T08:00:00.000Z)');
    });
    it('a year from 29 February is 1 March (the calendar, not 365 days)', () => {
      assert.equal(joinAtProblem('2029-03-01T08:00:00.000Z', '2028-02-29T08:00:00.000Z'), null);
      assert.notEqual(joinAtProblem('2029-03-01T08:00:00.001Z', '2028-02-29T08:00:00.000Z'), null);
    });
  });
});
