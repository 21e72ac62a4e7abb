import type { ReadStore } from '../adapters/read-store/port';
import type { DomainEvent } from '../domain/all-events';
import type { Projection } from './projection';
import { drawFromSequence } from './sequences';

/**
 * Applies one event to every read model it concerns. The read store's position guard makes this safe to
 * repeat: a document that already reflects this position (or a later one) is left alone.
 */
export const applyEventToProjections = async (
  readStore: ReadStore,
  projections: readonly Projection<any>[],
  event: DomainEvent,
  position: bigint,
): Promise<void> => {
  for (const projection of projections) {
    const id = projection.documentId(event);
    if (id === null) continue;
    const stored = await readStore.get(projection.collection, id);
    if (stored && stored.position >= position) continue;
    const sequence = projection.sequenceOf?.(event) ?? null;
    const drawn = sequence === null ? null : await drawFromSequence(readStore, `${projection.collection}:${sequence}`, position);
    const next = projection.evolve(stored ? stored.doc : null, event, { position, sequence: drawn });
    if (next !== null) await readStore.upsert(projection.collection, next, position);
  }
};

/** Indexes for every projection's queries; run at start and after a rebuild dropped the collections. */
export const ensureProjectionIndexes = async (readStore: ReadStore, projections: readonly Projection<any>[]): Promise<void> => {
  for (const projection of projections) {
    if (projection.indexes) await readStore.ensureIndexes(projection.collection, projection.indexes);
  }
};
