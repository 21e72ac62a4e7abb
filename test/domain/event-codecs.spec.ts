import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { DomainEvent, knownEventTypes } from '../../src/domain/all-events';
import { IsoInstant, TokenAmount, toMillis } from '../../src/domain/codec-helpers';

const T0 = '2025-03-03T09:00:00.000Z';
const decodes = (value: unknown): boolean => E.isRight(DomainEvent.decode(value));

const statusChanged = (at: unknown) => ({ type: 'StatusChanged', data: { bot_id: 'b1', status: 'joining_call', at } });
const reserved = (amount: unknown) => ({ type: 'TokensReserved', data: { team_id: 't1', bot_id: 'b1', amount, at: T0 } });

describe('event codecs refuse values the domain cannot use', () => {
  describe('event times are ISO 8601 instants', () => {
    it("decoding an event with at: 'not a date' fails", () => {
      assert.equal(decodes(statusChanged('not a date')), false);
    });

    it('what toISOString() writes decodes, and so does the same instant with an offset or another fraction', () => {
      for (const at of [T0, new Date(0).toISOString(), '2025-03-03T09:00:00Z', '2025-03-03T10:00:00+01:00', '2025-03-03T04:00:00.5-05:00', '2024-02-29T23:59:59.999999Z']) {
        assert.equal(decodes(statusChanged(at)), true, at);
      }
      assert.equal(toMillis('2025-03-03T10:00:00+01:00'), toMillis(T0));
    });

    it('a time without a zone, a date alone, an impossible date or time, or a non-string fails', () => {
      for (const at of [
        '2025-03-03T09:00:00.000', '2025-03-03', '2025-03-03 09:00:00Z', '2025-02-30T09:00:00Z', '2025-13-01T09:00:00Z',
        '2025-03-03T24:00:00Z', '2025-03-03T09:60:00Z', '2025-03-03T09:00:00+25:00', '', 1741000000000, null,
      ]) {
        assert.equal(decodes(statusChanged(at)), false, String(at));
      }
    });

    it('every event type checks its time: a MeetingLocked, a MeetingLockReleased and a TokensAdded with a bad time fail', () => {
      const locked = { type: 'MeetingLocked', data: { team_id: 't1', meeting_url: 'https://vc.localhost/j/1', bot_id: 'b1', allow_multiple_bots: false, at: T0 } };
      const lockReleased = { type: 'MeetingLockReleased', data: { team_id: 't1', meeting_url: 'https://vc.localhost/j/1', bot_id: 'b1', reason: 'creation_aborted', at: T0 } };
      const added = { type: 'TokensAdded', data: { team_id: 't1', operation_id: 'op', amount: 1000, at: T0 } };
      for (const event of [locked, lockReleased, added]) {
        assert.equal(decodes(event), true, event.type);
        assert.equal(decodes({ ...event, data: { ...event.data, at: 'yesterday' } }), false, event.type);
      }
    });

    it('IsoInstant encodes a decoded instant unchanged', () => {
      assert.equal(IsoInstant.encode(T0), T0);
    });
  });

  describe('token amounts are whole, non-negative thousandths', () => {
    it('500 decodes; 0.5, -500, NaN, Infinity and "500" fail', () => {
      assert.equal(decodes(reserved(500)), true);
      for (const amount of [0.5, -500, Number.NaN, Number.POSITIVE_INFINITY, '500', 2 ** 53]) {
        assert.equal(decodes(reserved(amount)), false, String(amount));
      }
    });

    it('every ledger event with an amount checks it', () => {
      const base = { team_id: 't1', bot_id: 'b1', at: T0 };
      const events = [
        { type: 'TokensAdded', data: { team_id: 't1', operation_id: 'op', amount: 1000, at: T0 } },
        { type: 'TokensCharged', data: { ...base, amount: 1250, error_code: 'API_REQUEST' } },
        { type: 'TokensReleased', data: { ...base, amount: 500, reason: 'nothing_to_charge' } },
      ];
      for (const event of events) {
        assert.equal(decodes(event), true, event.type);
        assert.equal(decodes({ ...event, data: { ...event.data, amount: 12.5 } }), false, event.type);
      }
      assert.equal(E.isRight(TokenAmount.decode(0)), true);
    });
  });

  it('the new MeetingLockReleased is a known event type of the domain', () => {
    assert.ok(knownEventTypes.has('MeetingLockReleased'));
    assert.ok(knownEventTypes.has('MeetingLocked'));
  });
});
