import type { ReadStore } from '../adapters/read-store/port';

/** The counters of projections' sequences, kept beside the read models they number (and dropped with them). */
export const SEQUENCES = 'projection_sequences';

type SequenceDocument = { readonly id: string; readonly value: number };

/**
 * The number the event at `position` draws from a sequence. The counter remembers the position that drew
 * its current value, so applying that event again (after a failure between the counter and the document)
 * gets the same number instead of a new one.
 */
export const drawFromSequence = async (readStore: ReadStore, sequence: string, position: bigint): Promise<number> => {
  const stored = await readStore.get<SequenceDocument>(SEQUENCES, sequence);
  if (stored && stored.position === position) return stored.doc.value;
  if (stored && stored.position > position) {
    throw new Error(`sequence ${sequence} is at position ${stored.position}, past the event at ${position} that draws from it`);
  }
  const value = (stored?.doc.value ?? 0) + 1;
  await readStore.upsert<SequenceDocument>(SEQUENCES, { id: sequence, value }, position);
  return value;
};
