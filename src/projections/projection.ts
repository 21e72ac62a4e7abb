import type { ReadDocument, SortKey } from '../adapters/read-store/port';
import type { DomainEvent } from '../domain/all-events';

/** What the runner hands to evolve besides the event. */
export interface ProjectionContext {
  /** the event's global position, for views that must remember one */
  readonly position: bigint;
  /** The number this event drew from the projection's sequence (see `sequenceOf`); null when it drew none. */
  readonly sequence: number | null;
}

/**
 * A read model as a pure fold: which document an event touches, and what that document becomes.
 * The runner applies an event only to documents whose stored position is older, so applying the same
 * event twice changes nothing.
 */
export interface Projection<D extends ReadDocument = ReadDocument> {
  readonly collection: string;
  /** The id of the document this event changes, or null when it changes none. */
  readonly documentId: (event: DomainEvent) => string | null;
  /** The document after the event; null leaves it as it was. */
  readonly evolve: (doc: D | null, event: DomainEvent, context: ProjectionContext) => D | null;
  /**
   * The sequence this event draws the next number from (1, 2, 3, ... in log order), or null. Numbers are
   * given in the order events are applied, which is the log's order both live and in a rebuild, so a
   * rebuild gives every document the same number again.
   */
  readonly sequenceOf?: (event: DomainEvent) => string | null;
  /** The orders its queries use, so that the read store can index them. */
  readonly indexes?: readonly (readonly SortKey[])[];
}
