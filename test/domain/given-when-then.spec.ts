import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import type { Decider } from '../../src/domain/decider';
import { at, deciderSpec } from './given-when-then';

// A toy counter, so that the helper itself is known to fail when it should: otherwise every domain spec
// built on it could pass for the wrong reason.
type Command = { readonly type: 'Add'; readonly n: number };
type Event = { readonly type: 'Added'; readonly n: number };
type Rejection = { readonly code: 'TOO_BIG'; readonly message: string; readonly limit: number };

const counter: Decider<Command, Event, number, Rejection> = {
  initialState: () => 0,
  evolve: (total, event) => total + event.n,
  decide: (command, total) => {
    if (command.n === 0) return E.right([]);
    if (total + command.n > 10) return E.left({ code: 'TOO_BIG', message: `over 10 (${total})`, limit: 10 });
    return E.right([{ type: 'Added', n: command.n }]);
  },
};

const spec = deciderSpec(counter);

describe('the given/when/then helper', () => {
  it('folds the given events before deciding', () => {
    spec.given([{ type: 'Added', n: 9 }]).when({ type: 'Add', n: 2 }).thenRejects({ code: 'TOO_BIG' });
    spec.given([{ type: 'Added', n: 8 }]).when({ type: 'Add', n: 2 }).then([{ type: 'Added', n: 2 }]);
  });

  it('then fails when the events differ or when the command is refused', () => {
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 2 }).then([{ type: 'Added', n: 3 }]), assert.AssertionError);
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 2 }).then([]), assert.AssertionError);
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 11 }).then([]), /refused/);
  });

  it('thenRejects compares only the fields it is given, and fails on acceptance or on another value', () => {
    spec.given([]).when({ type: 'Add', n: 11 }).thenRejects({ code: 'TOO_BIG', limit: 10 });
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 11 }).thenRejects({ code: 'TOO_BIG', limit: 9 }), assert.AssertionError);
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 1 }).thenRejects({ code: 'TOO_BIG' }), /accepted|produced/);
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 11 }).thenRejects({}), /at least one field/);
  });

  it('thenNothing fails when events are produced or the command is refused', () => {
    spec.given([]).when({ type: 'Add', n: 0 }).thenNothing();
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 1 }).thenNothing(), assert.AssertionError);
    assert.throws(() => spec.given([]).when({ type: 'Add', n: 11 }).thenNothing(), /refused/);
  });

  it('with a codec, a given or decided event that does not decode fails the spec', () => {
    // Only events of at most 5 decode: a given 6 and a decided 7 are caught, whatever the expectation.
    const SmallAdded = t.type({ type: t.literal('Added'), n: t.refinement(t.number, (n) => n <= 5, 'Small') });
    const strict = deciderSpec(counter, SmallAdded);
    strict.given([{ type: 'Added', n: 2 }]).when({ type: 'Add', n: 3 }).then([{ type: 'Added', n: 3 }]);
    assert.throws(() => strict.given([{ type: 'Added', n: 6 }]).when({ type: 'Add', n: 1 }).then([{ type: 'Added', n: 1 }]), /a given event does not decode/);
    assert.throws(() => strict.given([]).when({ type: 'Add', n: 7 }).then([{ type: 'Added', n: 7 }]), /a decided event does not decode/);
    assert.throws(() => strict.given([{ type: 'Added', n: 6 }]).when({ type: 'Add', n: 11 }).thenRejects({ code: 'TOO_BIG' }), /a given event does not decode/);
  });

  it('at() offsets a fixed instant without reading the clock', () => {
    assert.equal(at('2025-03-03T09:00:00.000Z', { h: 24, ms: 1 }), '2025-03-04T09:00:00.001Z');
    assert.equal(at('2025-03-03T09:00:00.000Z', { m: 4, s: 59, ms: 999 }), '2025-03-03T09:04:59.999Z');
  });
});
