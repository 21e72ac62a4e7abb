import type Logger from 'bunyan';
import type { CheckpointStore } from '../../adapters/checkpoint-store/port';
import type { BackgroundPart, RunningPart } from './background-part';
import { LeasedPart, type LeaseTiming } from './leased-part';

export interface BackgroundPartsDeps {
  readonly checkpoints: CheckpointStore;
  /** this process among all that share the stores: unique per process (INSTANCE_ID and a random suffix) */
  readonly owner: string;
  readonly timing: LeaseTiming;
  readonly log: Logger;
}

export interface RunningParts {
  /** the leases this process holds now, by name */
  heldLeases(): string[];
  /** the keeper of a leased part (operators and tests: who holds it, its takeovers) */
  keeperOf(lease: string): LeasedPart | undefined;
  /** stops every part, in the reverse of the order they started */
  stop(): Promise<void>;
}

/**
 * Starts the parts in the order of the list: a part without a lease at once, a leased one through its
 * keeper (which starts it now if the lease is free, or stands by). Stops them in reverse. A part that
 * fails to start stops those started before it, and the start fails with its error.
 */
export const startBackgroundParts = async (parts: readonly BackgroundPart[], deps: BackgroundPartsDeps): Promise<RunningParts> => {
  const started: { readonly name: string; readonly stop: () => Promise<void> }[] = [];
  const keepers = new Map<string, LeasedPart>();
  const stopAll = async () => {
    for (const part of started.splice(0).reverse()) {
      await part.stop().catch((err) => deps.log.error({ err, part: part.name }, 'a background part failed to stop'));
    }
  };
  try {
    for (const part of parts) {
      if (part.lease === undefined) {
        const running: RunningPart = await part.start(null);
        started.push({ name: part.name, stop: () => running.stop() });
        continue;
      }
      if (keepers.has(part.lease)) throw new Error(`two background parts share the lease ${part.lease}`);
      const keeper = new LeasedPart({ ...part, lease: part.lease, start: (h) => part.start(h) }, deps.checkpoints, deps.owner, deps.timing, deps.log);
      keepers.set(part.lease, keeper);
      await keeper.start();
      started.push({ name: part.name, stop: () => keeper.stop() });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    heldLeases: () => [...keepers].filter(([, keeper]) => keeper.holds).map(([name]) => name),
    keeperOf: (lease) => keepers.get(lease),
    stop: stopAll,
  };
};
