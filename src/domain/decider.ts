import type { Either } from 'fp-ts/Either';

/**
 * A decider per aggregate, in the style of Emmett: `decide` turns a command into events given the state
 * folded from past events; `evolve` folds one event into the state. Both pure: time and ids arrive on the
 * command. A refusal is a value (Left), not an exception.
 */
export interface Decider<Command, Event, State, Rejection> {
  readonly decide: (command: Command, state: State) => Either<Rejection, readonly Event[]>;
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: () => State;
  /** For aggregates whose streams grow without end (a team's ledger): how a snapshot stores the state. */
  readonly snapshot?: SnapshotCodec<State>;
}

/**
 * The state as JSON and back. `version` changes with every change to the state's shape or to what
 * `evolve` makes of an event: a snapshot of another version is folded again from the log.
 */
export interface SnapshotCodec<State> {
  readonly version: number;
  readonly encode: (state: State) => unknown;
  readonly decode: (json: unknown) => State;
}

export const foldEvents = <Event, State>(
  evolve: (state: State, event: Event) => State,
  initial: State,
  events: readonly Event[],
): State => events.reduce(evolve, initial);
