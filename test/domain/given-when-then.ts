import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { foldEvents, type Decider } from '../../src/domain/decider';

/**
 * Given/when/then over a `Decider`, in the style of Emmett's `DeciderSpecification`:
 *
 *   deciderSpec(decider).given(pastEvents).when(command).then(expectedEvents)
 *   deciderSpec(decider).given(pastEvents).when(command).thenRejects({ code: 'SOME_CODE' })
 *   deciderSpec(decider).given(pastEvents).when(command).thenNothing()
 *
 * `given` is folded with `evolve` from `initialState()`; `decide` then runs once on that state.
 * With the aggregate's event codec, every given event and every decided event must also decode with it
 * (what the store would refuse on read can neither be a fixture nor a decision).
 */
export interface Then<Event, Rejection> {
  /** The command is accepted and produces exactly these events (deep, strict equality). */
  readonly then: (expected: readonly Event[]) => void;
  /** The command is refused; every field given here must equal the rejection's field (others are not checked). */
  readonly thenRejects: (expected: Partial<Rejection>) => void;
  /** The command is accepted and produces no event (a retry, an already-done request). */
  readonly thenNothing: () => void;
}

export interface When<Command, Event, Rejection> {
  readonly when: (command: Command) => Then<Event, Rejection>;
}

export interface DeciderSpec<Command, Event, Rejection> {
  readonly given: (events: readonly Event[]) => When<Command, Event, Rejection>;
}

const show = (value: unknown): string => JSON.stringify(value, null, 2);

const assertDecodes = <Event>(codec: t.Decoder<unknown, Event> | undefined, events: readonly Event[], what: string): void => {
  if (!codec) return;
  for (const event of events) {
    const decoded = codec.decode(event);
    if (E.isLeft(decoded)) assert.fail(`${what} event does not decode: ${PathReporter.report(decoded).join('; ')}\n${show(event)}`);
  }
};

export const deciderSpec = <Command, Event, State, Rejection>(
  decider: Decider<Command, Event, State, Rejection>,
  codec?: t.Decoder<unknown, Event>,
): DeciderSpec<Command, Event, Rejection> => ({
  given: (events) => ({
    when: (command) => {
      const decideOnce = () => {
        assertDecodes(codec, events, 'a given');
        return decider.decide(command, foldEvents(decider.evolve, decider.initialState(), events));
      };

      const accepted = (): readonly Event[] => {
        const result = decideOnce();
        if (E.isLeft(result)) assert.fail(`expected the command to be accepted, but it was refused with ${show(result.left)}`);
        assertDecodes(codec, result.right, 'a decided');
        return result.right;
      };

      return {
        then: (expected) => assert.deepStrictEqual(accepted(), expected),
        thenNothing: () => assert.deepStrictEqual(accepted(), []),
        thenRejects: (expected) => {
          const result = decideOnce();
          if (E.isRight(result)) assert.fail(`expected the command to be refused, but it produced ${show(result.right)}`);
          const keys = Object.keys(expected) as (keyof Rejection)[];
          assert.ok(keys.length > 0, 'thenRejects needs at least one field to compare (for example the code)');
          const actual = Object.fromEntries(keys.map((k) => [k, result.left[k]]));
          assert.deepStrictEqual(actual, expected, `rejection was ${show(result.left)}`);
        },
      };
    },
  }),
});

/** The state after folding `events`, for the few rules that are about what a state answers. */
export const stateAfter = <Command, Event, State, Rejection>(
  decider: Decider<Command, Event, State, Rejection>,
  events: readonly Event[],
): State => foldEvents(decider.evolve, decider.initialState(), events);

/** A fixed instant plus an offset, as an ISO string: tests never read the clock. */
export const at = (base: string, offset: { h?: number; m?: number; s?: number; ms?: number } = {}): string =>
  new Date(
    Date.parse(base) + (offset.h ?? 0) * 3_600_000 + (offset.m ?? 0) * 60_000 + (offset.s ?? 0) * 1000 + (offset.ms ?? 0),
  ).toISOString();
