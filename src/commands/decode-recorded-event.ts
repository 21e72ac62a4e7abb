import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import type { RecordedEvent } from '../adapters/event-store/port';

export class CorruptEvent extends Error {
  constructor(readonly event: RecordedEvent, reason: string) {
    super(`event ${event.id} (${event.type}) in ${event.streamName} at revision ${event.revision} does not decode: ${reason}`);
    this.name = 'CorruptEvent';
  }
}

/** Events are decoded on read: a stored event that no longer matches its codec is an error, never a guess. */
export const decodeRecordedEvent = <A>(codec: t.Decoder<unknown, A>, event: RecordedEvent): A => {
  const decoded = codec.decode({ type: event.type, data: event.data });
  if (E.isLeft(decoded)) throw new CorruptEvent(event, PathReporter.report(decoded).join('; '));
  return decoded.right;
};
