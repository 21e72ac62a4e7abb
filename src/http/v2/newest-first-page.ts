import type { FieldValue, ReadDocument, ReadStore } from '../../adapters/read-store/port';
import type { ListQuery } from '../codecs/list-query';
import { decodeCursor, encodeCursor } from './list-cursor';

/**
 * One page of a list in the order of `sortBy` then id, with an opaque cursor to the next page (null on the
 * last): keyset pagination, so a page stays right while documents are added.
 */
export const keysetPage = async <D extends ReadDocument>(
  readStore: ReadStore,
  collection: string,
  where: Readonly<Record<string, FieldValue>>,
  sortBy: { readonly field: keyof D & string; readonly direction: 'asc' | 'desc' },
  query: ListQuery,
): Promise<{ readonly items: readonly D[]; readonly next_cursor: string | null }> => {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const page = await readStore.find<D>(collection, {
    where,
    orderBy: [
      { field: sortBy.field, direction: sortBy.direction },
      { field: 'id', direction: sortBy.direction },
    ],
    ...(after ? { startAfter: after } : {}),
    limit: query.limit + 1,
  });
  const items = page.slice(0, query.limit);
  const last = items[items.length - 1];
  return { items, next_cursor: page.length > query.limit && last ? encodeCursor([String(last[sortBy.field]), last.id]) : null };
};

/** One page of a list, newest first by `timeField` then id. */
export const newestFirstPage = <D extends ReadDocument>(
  readStore: ReadStore,
  collection: string,
  where: Readonly<Record<string, FieldValue>>,
  timeField: keyof D & string,
  query: ListQuery,
) => keysetPage<D>(readStore, collection, where, { field: timeField, direction: 'desc' }, query);
