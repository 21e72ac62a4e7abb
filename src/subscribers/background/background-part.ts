import type { Lease } from '../../adapters/checkpoint-store/port';

/**
 * A lease this process holds while a part runs under it. `held()` is this process's own, cautious
 * reckoning (the last renewal's request time plus the TTL, less a margin): once it says false, or `lost`
 * is aborted, no side effect may start, since a standby may already be taking over.
 */
export interface LeaseHolding {
  /** the lease as last renewed: pass it to saveCheckpoint, which refuses it once it is stale */
  readonly lease: Lease;
  held(): boolean;
  readonly lost: AbortSignal;
}

export interface RunningPart {
  /** Stops at once: no new work starts; resolves when what was under way has ended. */
  stop(): Promise<void>;
}

/**
 * Every background part of the service (projector, subscribers, sweeps, dispatcher, scheduler, watches,
 * the HTTP server) behind one interface, started in the order of one list and stopped in reverse
 * (background-parts.ts). A part with a `lease` runs in one process at a time: the one holding that named
 * lease; the others stand by and start it when they take the lease over (leased-part.ts). Each start
 * builds the part afresh from the log and the read models, so what it kept in memory is never stale.
 */
export interface BackgroundPart {
  readonly name: string;
  /** the named lease it runs under; none: it runs in every process that has it */
  readonly lease?: string;
  start(holding: LeaseHolding | null): Promise<RunningPart>;
}

/** A part whose running instance others may look at (operators and tests), while this process runs it. */
export interface ObservablePart<T> extends BackgroundPart {
  /** the running instance, or null while this process does not run it (another holds its lease) */
  readonly current: T | null;
}

/** Makes a part of a factory: each start makes a new instance, reachable as `current` while it runs. */
export const partOf = <T extends RunningPart>(
  name: string,
  make: (holding: LeaseHolding | null) => Promise<T> | T,
  options: { readonly lease?: string } = {},
): ObservablePart<T> => {
  let current: T | null = null;
  return {
    name,
    ...(options.lease ? { lease: options.lease } : {}),
    get current() {
      return current;
    },
    async start(holding) {
      const made = await make(holding);
      current = made;
      return {
        stop: async () => {
          if (current === made) current = null;
          await made.stop();
        },
      };
    },
  };
};

/** The running instance of a part this process must be running (tests and operators ask for it by name). */
export const runningOf = <T>(part: ObservablePart<T>): T => {
  if (part.current === null) throw new Error(`${part.name} does not run in this process now${part.lease ? ` (another process holds the lease ${part.lease})` : ''}`);
  return part.current;
};
