import * as E from 'fp-ts/Either';
import type { ApiError } from '../api-error';
import { checkLength, decodeWith, leaf, strictObject, withDefault } from './codec-kit';

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;
export const MAX_CURSOR_LENGTH = 512;

/** koa's `ctx.query`: a repeated parameter arrives as an array. */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

export interface ListQuery {
  readonly limit: number;
  readonly cursor?: string;
}

const single = (u: unknown): E.Either<string, string> =>
  typeof u === 'string' ? E.right(u) : E.left('must be given at most once');

/** Query values are text: digits only, so `1e1`, `+5` or `10.0` are refused rather than guessed at. */
const limitOf = (max: number) =>
  leaf<number>(
    'limit',
    (u) =>
      E.chain((s: string) => {
        const n = /^[0-9]{1,4}$/.test(s) ? Number(s) : NaN;
        return n >= 1 && n <= max ? E.right(n) : E.left(`must be an integer from 1 to ${max}`);
      })(single(u)),
    { type: 'integer', minimum: 1, maximum: max },
  );

/** Opaque to this layer (the route decodes it); only its size is bounded here. */
const Cursor = leaf<string>('cursor', (u) => E.chain((s: string) => checkLength(s, 1, MAX_CURSOR_LENGTH))(single(u)), {
  type: 'string',
  maxLength: MAX_CURSOR_LENGTH,
  description: 'The `next_cursor` of the previous page; empty or absent: the first page.',
});

/** The list query of a list whose pages have these sizes, as the route decodes it and the document describes it. */
export const listQueryCodec = (sizes: PageSizes) =>
  strictObject('ListQuery', {
    limit: withDefault(limitOf(sizes.max), () => sizes.default),
    cursor: withDefault(Cursor, () => undefined),
  });

export interface PageSizes {
  readonly default: number;
  readonly max: number;
}

const LIST_PAGES: PageSizes = { default: DEFAULT_LIST_LIMIT, max: MAX_LIST_LIMIT };

/** The query of the lists with the usual page sizes. */
export const ListQueryCodec = listQueryCodec(LIST_PAGES);

/**
 * An empty `cursor=` means "first page", which is what a client passing `next_cursor ?? ''` wants. Page
 * sizes are the lists' (20, at most 100) unless a list has its own.
 */
export const decodeListQuery = (query: RawQuery, sizes: PageSizes = LIST_PAGES): E.Either<ApiError, ListQuery> => {
  const { cursor, ...rest } = query;
  const input = cursor === '' ? rest : query;
  return E.map(({ limit, cursor: c }: { limit: number; cursor: string | undefined }) => (c === undefined ? { limit } : { limit, cursor: c }))(
    decodeWith(listQueryCodec(sizes), 'querystring', { ...input }),
  );
};
