import type { EventStore } from '../adapters/event-store/port';

/** What every command handler needs from the outside world: time and ids are given, never taken. */
export interface CommandDeps {
  readonly eventStore: EventStore;
  readonly clock: () => Date;
  readonly newId: () => string;
}

export const nowIso = (deps: CommandDeps): string => deps.clock().toISOString();
