import type { EventStore } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { DomainEvent, knownEventTypes } from '../domain/all-events';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { applyEventToProjections, ensureProjectionIndexes } from './apply-event';
import type { Projection } from './projection';
import { PROJECTIONS_CHECKPOINT } from './projection-runner';

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
    for (const recorded of batch) {
      read++;
      if (!knownEventTypes.has(recorded.type)) continue;
      await applyEventToProjections(readStore, projections, decodeRecordedEvent(DomainEvent, recorded), recorded.position);
      applied++;
    }
    if (batch.length === 0) break;
    from = batch[batch.length - 1]!.position;
    await readStore.saveCheckpoint(PROJECTIONS_CHECKPOINT, from);
    if (batch.length < BATCH) break;
  }
  return { events_read: read, events_applied: applied, milliseconds: Math.round(clock() - started) };
};
