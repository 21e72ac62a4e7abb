import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import type { ApiError } from '../api-error';
import { optionNotAvailable } from './unavailable-options';
import type { RawQuery } from './list-query';
import { queryBoolean, singleValues } from './legacy-query-kit';

/**
 * `DELETE /v2/bots/{id}/delete-data?delete_from_provider=true|false` (the official client's). The service
 * keeps no copy at a transcription provider it could delete (a hosted provider keeps its own job, under the
 * team's own account and key): `true` is refused until the service can ask the provider to delete it.
 */
export const decodeDeleteDataQuery = (query: RawQuery): E.Either<ApiError, { readonly delete_from_provider: false }> =>
  pipe(
    singleValues(query, ['delete_from_provider']),
    E.chain((q) => queryBoolean('delete_from_provider', q.delete_from_provider, false)),
    E.chain((fromProvider) => {
      if (!fromProvider) return E.right({ delete_from_provider: false as const });
      return E.left(optionNotAvailable('delete_from_provider', "the deletion of a transcription provider's own copy", 'querystring'));
    }),
  );
