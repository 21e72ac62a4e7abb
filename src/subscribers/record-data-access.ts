import type Logger from 'bunyan';
import type { CommandDeps } from '../commands/command-deps';
import { dataAccessTally, DATA_ACCESS_WINDOW_MS, type DataAccessTally } from '../commands/data-access-tally';
import { periodicSweep } from './periodic-sweep';

export interface DataAccessRecorder {
  readonly tally: DataAccessTally;
  /** records what is held back, then stops the sweep */
  stop(): Promise<void>;
}

/** The tally of meeting_data reads, its closed windows recorded by a sweep (a few times a window). */
export const recordDataAccess = (
  commands: CommandDeps,
  log: Logger,
  options: { readonly windowMs?: number; readonly sweepMs?: number } = {},
): DataAccessRecorder => {
  const tally = dataAccessTally(commands, options.windowMs ?? DATA_ACCESS_WINDOW_MS);
  const sweep = periodicSweep('data-access', options.sweepMs ?? 10_000, async () => {
    await tally.recordClosedWindows();
  }, log);
  return {
    tally,
    stop: async () => {
      await sweep.stop();
      await tally.recordAll();
    },
  };
};
