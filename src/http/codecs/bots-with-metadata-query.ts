import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import { type ApiError, validationError } from '../api-error';
import { MAX_CURSOR_LENGTH, type RawQuery } from './list-query';
import { queryDateTime, readFieldValues, singleValues } from './legacy-query-kit';

export const DEFAULT_LEGACY_LIMIT = 10;
export const MAX_LEGACY_LIMIT = 50;
export const MAX_EXTRA_CONDITIONS = 20;

export interface ExtraCondition {
  readonly field: string;
  readonly value: string;
}

export interface ExtraSort {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** `GET /bots/bots_with_metadata`'s query, every rule checked; dates are instants as stored. */
export interface BotsWithMetadataQuery {
  readonly bot_name?: string;
  readonly meeting_url?: string;
  readonly speaker_name?: string;
  readonly created_after?: string;
  readonly created_before?: string;
  readonly ended_after?: string;
  readonly filter_by_extra: readonly ExtraCondition[];
  readonly sort_by_extra: ExtraSort | null;
  readonly limit: number;
  readonly cursor?: string;
}

export const BOTS_WITH_METADATA_PARAMETERS = [
  'bot_name', 'created_after', 'created_before', 'ended_after', 'cursor', 'filter_by_extra', 'sort_by_extra', 'limit', 'meeting_url', 'speaker_name',
] as const;

const limitOf = (value: string | undefined): E.Either<ApiError, number> => {
  if (value === undefined) return E.right(DEFAULT_LEGACY_LIMIT);
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  return n >= 1 && n <= MAX_LEGACY_LIMIT ? E.right(n) : E.left(validationError('querystring/limit', `must be an integer from 1 to ${MAX_LEGACY_LIMIT}`));
};

const ESCAPES = 'write a comma inside a value as \\, and a colon inside a field name as \\:';

const filterOf = (value: string | undefined): E.Either<ApiError, ExtraCondition[]> => {
  if (value === undefined) return E.right([]);
  const invalid = (why: string) => E.left(validationError('querystring/filter_by_extra', why));
  const parts = readFieldValues(value);
  if (parts === null) return invalid('must not end in a lone backslash');
  if (parts.length > MAX_EXTRA_CONDITIONS) return invalid(`must NOT have more than ${MAX_EXTRA_CONDITIONS} conditions`);
  const conditions: ExtraCondition[] = [];
  for (const { field, value: wanted } of parts) {
    if (wanted === null || field === '') return invalid(`condition "${field}" must be field:value (${ESCAPES})`);
    conditions.push({ field, value: wanted });
  }
  return E.right(conditions);
};

const sortOf = (value: string | undefined): E.Either<ApiError, ExtraSort | null> => {
  if (value === undefined) return E.right(null);
  const parts = readFieldValues(value);
  const invalid = E.left(validationError('querystring/sort_by_extra', `must be field, field:asc or field:desc (${ESCAPES})`));
  if (parts === null || parts.length !== 1) return invalid;
  const [{ field, value: direction }] = parts as [{ field: string; value: string | null }];
  if (field === '' || (direction !== null && direction !== 'asc' && direction !== 'desc')) return invalid;
  return E.right({ field, direction: direction ?? 'asc' });
};

const cursorOf = (value: string | undefined): E.Either<ApiError, string | undefined> =>
  value === undefined || value.length <= MAX_CURSOR_LENGTH
    ? E.right(value)
    : E.left(validationError('querystring/cursor', `must NOT have more than ${MAX_CURSOR_LENGTH} characters`));

const optional = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };

export const decodeBotsWithMetadataQuery = (query: RawQuery): E.Either<ApiError, BotsWithMetadataQuery> =>
  pipe(
    singleValues(query, BOTS_WITH_METADATA_PARAMETERS),
    E.chain((q) =>
      pipe(
        E.Do,
        E.bind('created_after', () => queryDateTime('created_after', q.created_after, 'up')),
        E.bind('created_before', () => queryDateTime('created_before', q.created_before, 'down')),
        E.bind('ended_after', () => queryDateTime('ended_after', q.ended_after, 'up')),
        E.bind('filter_by_extra', () => filterOf(q.filter_by_extra)),
        E.bind('sort_by_extra', () => sortOf(q.sort_by_extra)),
        E.bind('limit', () => limitOf(q.limit)),
        E.bind('cursor', () => cursorOf(q.cursor)),
        E.map((r) => ({
          ...optional('bot_name', q.bot_name),
          ...optional('meeting_url', q.meeting_url),
          ...optional('speaker_name', q.speaker_name),
          ...optional('created_after', r.created_after),
          ...optional('created_before', r.created_before),
          ...optional('ended_after', r.ended_after),
          ...optional('cursor', r.cursor),
          filter_by_extra: r.filter_by_extra,
          sort_by_extra: r.sort_by_extra,
          limit: r.limit,
        })),
      ),
    ),
  );
