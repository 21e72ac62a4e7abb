import * as E from 'fp-ts/Either';
import { type ApiError, validationError } from '../api-error';

/** The spec's v2 UUID forms: versions 1 to 8 with the RFC variant, plus the nil and max UUIDs. */
const VERSIONED = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const NIL = '00000000-0000-0000-0000-000000000000';
const MAX = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** The same forms as a JSON Schema pattern (no flags there: both cases spelled out), for the OpenAPI document. */
export const UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|0{8}-0{4}-0{4}-0{4}-0{12}|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

/** A UUID as the API takes it (any case; answered lower-case). */
export const UUID_SCHEMA = { type: 'string', format: 'uuid', pattern: UUID_PATTERN } as const;

/** The canonical (lower-case) spelling, or null when the text is not one of the accepted forms. */
export const normaliseUuid = (raw: unknown): string | null => {
  if (typeof raw !== 'string') return null;
  const lower = raw.toLowerCase();
  return VERSIONED.test(lower) || lower === NIL || lower === MAX ? lower : null;
};

/** Ids are stored lower-case, so a path id is normalised before any lookup. */
export const parseUuidParam = (name: string, raw: string | undefined): E.Either<ApiError, string> => {
  const uuid = normaliseUuid(raw);
  return uuid === null ? E.left(validationError(`params/${name}`, 'must match format "uuid"')) : E.right(uuid);
};

export const parseBotIdParam = (raw: string | undefined): E.Either<ApiError, string> => parseUuidParam('bot_id', raw);
