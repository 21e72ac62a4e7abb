import type { ReadStore } from '../adapters/read-store/port';
import type { DomainEvent } from '../domain/all-events';
import type { Projection } from './projection';

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
    const next = projection.evolve(stored ? stored.doc : null, event, position);
    if (next !== null) await readStore.upsert(projection.collection, next, position);
  }
};
