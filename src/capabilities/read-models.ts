import type Logger from 'bunyan';
import type { EventStore } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { Projection } from '../projections/projection';
import type { ReadModelProgress } from '../projections/read-model-progress';
import { type BackgroundPart, partOf } from '../subscribers/background/background-part';
import { ProjectionRunner } from '../subscribers/projection-runner';
import { rebuildProjections, type RebuildReport } from '../subscribers/rebuild-projections';
import { SharedReadModelProgress } from '../subscribers/shared-read-model-progress';

export interface ReadModels {
  readonly progress: ReadModelProgress;
  /** first in the list of parts: nothing is served before the read models have caught up */
  readonly parts: readonly BackgroundPart[];
  /** drops and refolds them (admin); only where this process projects them */
  rebuild(): Promise<RebuildReport>;
}

/**
 * The read models of this process. In memory (the default), every process projects the log itself and
 * waits on its own projector. Shared (MongoDB), one process projects them under the `projector` lease and
 * every process waits for its checkpoint.
 */
export const readModelsOf = (deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  shared: boolean;
  /** whether this process may be the projector of shared read models (api processes; a worker only reads them) */
  mayProject: boolean;
  projections: readonly Projection<any>[];
  log: Logger;
}): ReadModels => {
  const { eventStore, readStore, projections, log } = deps;
  const rebuildWith = async (runner: ProjectionRunner) => {
    await runner.stop();
    const report = await rebuildProjections(eventStore, readStore, projections);
    await runner.start();
    return report;
  };
  if (!deps.shared) {
    const runner = new ProjectionRunner(eventStore, readStore, projections, log);
    return {
      progress: runner,
      parts: [partOf('read-models', async () => (await runner.start(), runner))],
      rebuild: () => rebuildWith(runner),
    };
  }
  const progress = new SharedReadModelProgress(readStore, log);
  const projector = partOf(
    'projector',
    async (holding) => {
      const runner = new ProjectionRunner(eventStore, readStore, projections, log, undefined, holding);
      await runner.start();
      return runner;
    },
    { lease: 'projector' },
  );
  const follower = partOf('read-models', async () => (await progress.start(eventStore), progress));
  return {
    progress,
    parts: deps.mayProject ? [projector, follower] : [follower],
    rebuild: async () => {
      if (projector.current === null) throw new Error('the read models are projected by another process (it holds the projector lease): rebuild them there');
      return rebuildWith(projector.current);
    },
  };
};
