import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import { type ApiError, validationError } from '../api-error';
import type { RawQuery } from './list-query';
import { queryBoolean, singleValues } from './legacy-query-kit';
import { normaliseUuid } from './path-uuid';

export interface MeetingDataQuery {
  readonly bot_id: string;
  readonly include_transcripts: boolean;
}

export const MEETING_DATA_PARAMETERS = ['bot_id', 'include_transcripts'] as const;

/** `GET /bots/meeting_data?bot_id=<uuid>&include_transcripts=true|false` (default true). */
export const decodeMeetingDataQuery = (query: RawQuery): E.Either<ApiError, MeetingDataQuery> =>
  pipe(
    singleValues(query, MEETING_DATA_PARAMETERS),
    E.chain((q) => {
      if (q.bot_id === undefined) return E.left(validationError('querystring/bot_id', 'is required'));
      const botId = normaliseUuid(q.bot_id);
      if (botId === null) return E.left(validationError('querystring/bot_id', 'must match format "uuid"'));
      return E.map((include_transcripts: boolean) => ({ bot_id: botId, include_transcripts }))(queryBoolean('include_transcripts', q.include_transcripts, true));
    }),
  );
