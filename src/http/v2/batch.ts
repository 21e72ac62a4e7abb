import * as E from 'fp-ts/Either';
import type Logger from 'bunyan';
import { ApiError, toEnvelope, validationError, type ErrorEnvelope } from '../api-error';
import { isPlainObject } from '../codecs/codec-kit';
import type { MadeBot } from './bots-from-requests';

export const MAX_BATCH_ITEMS = 100;

/**
 * A batch body is a JSON array of 1 to 100 creation requests. Only the array is checked here: each item
 * is decoded by itself, exactly as the single endpoint decodes its body, so that one bad item fails alone.
 */
export const decodeBatchBody = (body: unknown): E.Either<ApiError, readonly unknown[]> => {
  if (!Array.isArray(body)) return E.left(validationError('body', 'must be array (of 1 to 100 bot creation requests)'));
  if (body.length < 1) return E.left(validationError('body', 'must NOT have fewer than 1 items'));
  if (body.length > MAX_BATCH_ITEMS) return E.left(validationError('body', `must NOT have more than ${MAX_BATCH_ITEMS} items`));
  return E.right(body);
};

/** An item made: its place in the request, its bot and the `extra` it carried (the official client's batch item). */
export interface BatchCreated {
  readonly index: number;
  readonly bot_id: string;
  readonly extra: Record<string, unknown> | null;
}

/** An item refused: the body its single request would have answered (with its status), its place and `extra`. */
export type BatchRefused = Omit<ErrorEnvelope, 'details'> & { readonly index: number; readonly extra: Record<string, unknown> | null; readonly details: string | null };

export interface BatchOutcome {
  readonly created: readonly BatchCreated[];
  readonly errors: readonly BatchRefused[];
  /** the last position written, for read-your-writes */
  readonly position: bigint | null;
}

const extraOf = (item: unknown): Record<string, unknown> | null =>
  isPlainObject(item) && isPlainObject(item.extra) ? item.extra : null;

/**
 * Decides the items one after another, in request order, each on its own: an item sees every bot the items
 * before it made (deduplication, daily cap and tokens apply between items as between separate requests).
 * A failure of one item is its result, never the batch's: what a single request would have answered 500
 * is a 500 item, logged with the request id like the error it would have been.
 */
export const runBatch = async (
  items: readonly unknown[],
  makeBot: (item: unknown) => Promise<MadeBot>,
  context: { readonly log: Logger; readonly requestId: string },
): Promise<BatchOutcome> => {
  const created: BatchCreated[] = [];
  const errors: BatchRefused[] = [];
  let position: bigint | null = null;
  for (const [index, item] of items.entries()) {
    const refused = (envelope: ErrorEnvelope) => errors.push({ details: null, ...envelope, index, extra: extraOf(item) });
    try {
      const made = await makeBot(item);
      if (made.position !== null && (position === null || made.position > position)) position = made.position;
      created.push({ index, bot_id: made.bot_id, extra: extraOf(item) });
    } catch (error) {
      if (error instanceof ApiError) {
        refused(toEnvelope(error));
        continue;
      }
      context.log.error({ err: error, batch_item: index }, 'unhandled error in a batch item');
      refused(toEnvelope(new ApiError({ status: 500, code: 'FST_ERR_INTERNAL', message: `Internal error (request id ${context.requestId})` })));
    }
  }
  return { created, errors, position };
};
