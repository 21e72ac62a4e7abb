import { createHash } from 'node:crypto';
import type { Contains, FieldValue, FindQuery, ReadStore, SortKey } from '../../adapters/read-store/port';
import { extraTextPath, foldForSearch } from '../../projections/legacy-bot-search';
import { LEGACY_BOTS, type LegacyBotView } from '../../projections/legacy-bot-view';
import { validationError } from '../api-error';
import type { BotsWithMetadataQuery } from '../codecs/bots-with-metadata-query';
import type { LegacyListItem } from '../codecs/responses/legacy-bot-responses';

/** The spec's legacy list item. */
export const toLegacyListItem = (bot: LegacyBotView): LegacyListItem => ({
  access_count: bot.access_count,
  bot_name: bot.bot_name,
  created_at: bot.created_at,
  duration: bot.duration,
  ended_at: bot.ended_at,
  // the official client's type: an object always (none given is {})
  extra: bot.extra ?? {},
  id: bot.legacy_id,
  last_accessed_at: bot.last_accessed_at,
  meeting_url: bot.meeting_url,
  session_id: bot.session_id,
  speakers: bot.speakers,
  uuid: bot.id,
});

export interface BotsWithMetadataPage {
  readonly bots: ReturnType<typeof toLegacyListItem>[];
  readonly last_updated: string;
  readonly next_cursor: string | null;
}

/**
 * What a cursor belongs to: the team and every filter and sort of the query (not the page size). A cursor
 * of another query would page through the wrong order, so it is refused rather than followed.
 */
const fingerprintOf = (teamId: string, q: BotsWithMetadataQuery): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        teamId, q.bot_name ?? null, q.meeting_url ?? null, q.speaker_name ?? null, q.created_after ?? null, q.created_before ?? null,
        q.ended_after ?? null, q.filter_by_extra, q.sort_by_extra,
      ]),
    )
    .digest('base64url')
    .slice(0, 16);

/**
 * The cursor names the last bot of the page (the sort keys are read back from it: they never change), so
 * it stays short whatever the size of an `extra` value. Base64url, so it goes into a URL as it is.
 */
const encodeCursor = (fingerprint: string, botId: string): string => Buffer.from(JSON.stringify({ q: fingerprint, after: botId })).toString('base64url');

const invalidCursor = (why: string) => validationError('querystring/cursor', why);

const decodeCursor = (cursor: string, fingerprint: string): string => {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('is not a cursor returned by this API');
  }
  const { q, after } = (decoded ?? {}) as { q?: unknown; after?: unknown };
  if (typeof q !== 'string' || typeof after !== 'string') throw invalidCursor('is not a cursor returned by this API');
  if (q !== fingerprint) throw invalidCursor('was returned for another query: a cursor only continues the query (filters and sort) it came from');
  return after;
};

const orderOf = (sort: BotsWithMetadataQuery['sort_by_extra']): SortKey[] => [
  // String comparison of the field's text, bots having the field first in both directions.
  ...(sort ? [{ field: extraTextPath(sort.field), direction: sort.direction, missing: 'last' as const }] : []),
  { field: 'created_at', direction: 'desc' },
  { field: 'legacy_id', direction: 'desc' },
];

const sortValue = (bot: LegacyBotView, key: SortKey): FieldValue => {
  let value: unknown = bot;
  for (const segment of key.field.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
  return value === undefined ? null : (value as FieldValue);
};

/** Equality on each extra field's text; one field asked for two different values matches no bot. */
const extraConditions = (conditions: BotsWithMetadataQuery['filter_by_extra']): Record<string, string> | null => {
  const where: Record<string, string> = {};
  for (const { field, value } of conditions) {
    const path = extraTextPath(field);
    if (where[path] !== undefined && where[path] !== value) return null;
    where[path] = value;
  }
  return where;
};

/** The newest change to any of the team's bots, or `now` for a team without bots. */
const lastUpdated = async (readStore: ReadStore, teamId: string, now: string): Promise<string> => {
  const [newest] = await readStore.find<LegacyBotView>(LEGACY_BOTS, {
    where: { team_id: teamId },
    orderBy: [{ field: 'updated_at', direction: 'desc' }],
    limit: 1,
  });
  return newest?.updated_at ?? now;
};

/** One page of `GET /bots/bots_with_metadata` for a team. */
export const botsWithMetadataPage = async (readStore: ReadStore, teamId: string, q: BotsWithMetadataQuery, now: string): Promise<BotsWithMetadataPage> => {
  const fingerprint = fingerprintOf(teamId, q);
  const order = orderOf(q.sort_by_extra);
  let startAfter: FieldValue[] | undefined;
  if (q.cursor !== undefined) {
    const after = await readStore.get<LegacyBotView>(LEGACY_BOTS, decodeCursor(q.cursor, fingerprint));
    if (!after || after.doc.team_id !== teamId) throw invalidCursor('is not a cursor returned by this API');
    startAfter = order.map((key) => sortValue(after.doc, key));
  }
  const extra = extraConditions(q.filter_by_extra);
  const contains: Contains[] = [];
  if (q.bot_name !== undefined) contains.push({ field: 'bot_name_folded', text: foldForSearch(q.bot_name) });
  if (q.meeting_url !== undefined) contains.push({ field: 'meeting_url_folded', text: foldForSearch(q.meeting_url) });
  if (q.speaker_name !== undefined) contains.push({ field: 'speakers_folded', text: foldForSearch(q.speaker_name) });
  const query: FindQuery = {
    where: { team_id: teamId, ...extra },
    contains,
    between: [
      ...(q.created_after !== undefined || q.created_before !== undefined
        ? [{ field: 'created_at', ...(q.created_after !== undefined ? { gte: q.created_after } : {}), ...(q.created_before !== undefined ? { lte: q.created_before } : {}) }]
        : []),
      ...(q.ended_after !== undefined ? [{ field: 'ended_at', gte: q.ended_after }] : []),
    ],
    orderBy: order,
    ...(startAfter ? { startAfter } : {}),
    limit: q.limit + 1,
  };
  const found = extra === null ? [] : await readStore.find<LegacyBotView>(LEGACY_BOTS, query);
  const page = found.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    bots: page.map(toLegacyListItem),
    last_updated: await lastUpdated(readStore, teamId, now),
    next_cursor: found.length > q.limit && last ? encodeCursor(fingerprint, last.id) : null,
  };
};
