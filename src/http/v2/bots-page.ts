import type { FieldValue, ReadStore } from '../../adapters/read-store/port';
import { BOTS, type BotView } from '../../projections/bot-view';
import { orThrow } from '../api-error';
import { decodeListQuery, type RawQuery } from '../codecs/list-query';
import { decodeCursor, encodeCursor } from './list-cursor';

/**
 * One page of a team's bots in the order of `sortBy` (then id), from the list query's `limit` and `cursor`:
 * the bots and the cursor of the next page (null on the last one).
 */
export const findBotsPage = async (
  readStore: ReadStore,
  where: Readonly<Record<string, FieldValue>>,
  sortBy: { readonly field: 'created_at' | 'join_at'; readonly direction: 'asc' | 'desc' },
  rawQuery: RawQuery,
): Promise<{ readonly bots: readonly BotView[]; readonly next_cursor: string | null }> => {
  const query = orThrow(decodeListQuery(rawQuery));
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const page = await readStore.find<BotView>(BOTS, {
    where,
    orderBy: [sortBy, { field: 'id', direction: sortBy.direction }],
    ...(after ? { startAfter: after } : {}),
    limit: query.limit + 1,
  });
  const bots = page.slice(0, query.limit);
  const last = bots[bots.length - 1];
  const lastKey = last?.[sortBy.field];
  return { bots, next_cursor: page.length > query.limit && last && lastKey ? encodeCursor([lastKey, last.id]) : null };
};
