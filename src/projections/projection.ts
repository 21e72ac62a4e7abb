import type { ReadDocument } from '../adapters/read-store/port';
import type { DomainEvent } from '../domain/all-events';

/**
 * A read model as a pure fold: which document an event touches, and what that document becomes.
 * The runner applies an event only to documents whose stored position is older, so applying the same
 * event twice changes nothing.
 */
export interface Projection<D extends ReadDocument = ReadDocument> {
  readonly collection: string;
  /** The id of the document this event changes, or null when it changes none. */
  readonly documentId: (event: DomainEvent) => string | null;
  /** The document after the event (at global `position`, for views that must remember one); null leaves it as it was. */
  readonly evolve: (doc: D | null, event: DomainEvent, position: bigint) => D | null;
}
