import type Logger from 'bunyan';
import type { EventStore, RecordedEvent } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import { ensureProjectionIndexes } from '../projections/apply-event';
import type { Projection } from '../projections/projection';

export const PROJECTIONS_CHECKPOINT = 'projections';

/** Which event of the log the read models were folded from, now and then: kept beside them, dropped with them. */
const PROJECTED_LOG = 'projection_log';
const MARK_ID = 'projected';

type ProjectedEventMark = {
  readonly id: typeof MARK_ID;
  readonly event_id: string;
};

/** Notes that the read models reflect this event; written with the checkpoint, in its transaction. */
export const markProjectedEvent = async (readStore: ReadStore, recorded: RecordedEvent): Promise<void> => {
  await readStore.upsert<ProjectedEventMark>(PROJECTED_LOG, { id: MARK_ID, event_id: recorded.id }, recorded.position);
};

/**
 * Where the projector resumes: the read store's checkpoint, when the log still holds the event the read
 * models last marked at its position. A persistent read store kept beside another log (a data folder's
 * event file replaced, DATABASE_URL pointed elsewhere) would otherwise go on from a position of a
 * different history: then the read models are dropped and folded again from the start.
 */
export const resumePoint = async (eventStore: EventStore, readStore: ReadStore, projections: readonly Projection<any>[], log: Logger): Promise<bigint | null> => {
  const checkpoint = await readStore.loadCheckpoint(PROJECTIONS_CHECKPOINT);
  if (checkpoint === null) return null;
  const mark = await readStore.get<ProjectedEventMark>(PROJECTED_LOG, MARK_ID);
  const at = mark?.position ?? checkpoint;
  const [found] = await eventStore.readAll({ fromPosition: at - 1n, maxCount: 1 });
  const sameLog = found !== undefined && found.position === at && (mark === null || found.id === mark.doc.event_id);
  if (sameLog) return checkpoint;
  log.warn({ checkpoint: checkpoint.toString(), marked_event: mark?.doc.event_id ?? null }, 'the read models were folded from another event log: folding them again from the start');
  await readStore.dropAll();
  await ensureProjectionIndexes(readStore, projections);
  return null;
};
