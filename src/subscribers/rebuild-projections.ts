import type { EventStore } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { decodeIfKnown } from './follow-log';
import { applyEventToProjections, ensureProjectionIndexes } from '../projections/apply-event';
import type { Projection } from '../projections/projection';
import { markProjectedEvent, PROJECTIONS_CHECKPOINT } from './projected-log';

export interface RebuildReport {
  readonly events_read: number;
  readonly events_applied: number;
  readonly milliseconds: number;
}

const BATCH = 1000;

/** Drops every read model and folds the whole event log into them again. */
export const rebuildProjections = async (
  eventStore: EventStore,
  readStore: ReadStore,
  projections: readonly Projection<any>[],
  clock: () => number = () => performance.now(),
): Promise<RebuildReport> => {
  const started = clock();
  await readStore.dropAll();
  await ensureProjectionIndexes(readStore, projections);
  let read = 0;
  let applied = 0;
  let from: bigint | undefined;
  for (;;) {
    const batch = await eventStore.readAll({ ...(from === undefined ? {} : { fromPosition: from }), maxCount: BATCH });
    if (batch.length === 0) break;
    // A batch commits with its checkpoint (one transaction in SQLite).
    await readStore.atomically(async () => {
      for (const recorded of batch) {
        read++;
        const event = decodeIfKnown(recorded);
        if (event === null) continue;
        await applyEventToProjections(readStore, projections, event, recorded.position);
        applied++;
      }
      await readStore.saveCheckpoint(PROJECTIONS_CHECKPOINT, batch.at(-1)!.position);
      await markProjectedEvent(readStore, batch.at(-1)!);
    });
    from = batch.at(-1)!.position;
    // A turn of the event loop between batches: the read store commits when due (SQLite), others run meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    if (batch.length < BATCH) break;
  }
  return { events_read: read, events_applied: applied, milliseconds: Math.round(clock() - started) };
};
