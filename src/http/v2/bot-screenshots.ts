import type { ArtifactLinks } from '../../adapters/artifact-links/port';
import { isKept, type ArtifactView, type BotView } from '../../projections/bot-view';
import { validationError } from '../api-error';
import type { ListQuery, PageSizes } from '../codecs/list-query';
import { decodeCursor, encodeCursor } from './list-cursor';

/** The official client's page sizes. */
export const SCREENSHOT_PAGES: PageSizes = { default: 50, max: 250 };

export interface Screenshot {
  /** its place among the bot's screenshots, oldest first, from 1 */
  readonly screenshot_id: number;
  readonly taken_at: string;
  /** signed now, valid 2 hours */
  readonly url: string;
  readonly url_expires_at: string;
}

/** The screenshots the bot still has (stored or held for its bucket), oldest first; failed, expired or deleted ones are gone. */
const keptScreenshots = (view: BotView): readonly ArtifactView[] =>
  view.artifacts.filter((a) => a.artifact_type === 'screenshot' && isKept(a));

/** Every screenshot of the bot with a link signed now (a link that cannot be made leaves its screenshot out). */
export const screenshotsOf = async (view: BotView, links: ArtifactLinks): Promise<Screenshot[]> => {
  const kept = keptScreenshots(view);
  const minted = kept.length === 0 ? new Map() : await links.linksFor(view.bot_id, kept.map((a) => a.key));
  return kept.flatMap((artifact, index) => {
    const link = minted.get(artifact.key);
    return link ? [{ screenshot_id: index + 1, taken_at: artifact.created_at, url: link.url, url_expires_at: link.expires_at }] : [];
  });
};

/** The last screenshot id a cursor of this bot stands after (a cursor is bound to its bot). */
const afterOf = (botId: string, cursor: string | undefined): number => {
  if (cursor === undefined) return 0;
  const [after, ofBot] = decodeCursor(cursor);
  const n = Number(after);
  if (ofBot !== botId || !Number.isSafeInteger(n) || n < 0) throw validationError('querystring/cursor', 'is not a cursor returned by this API for this bot');
  return n;
};

/**
 * One page of GET /v2/bots/{id}/screenshots in the official client's shape: `data`, `cursor` to the next page
 * and `prev_cursor` to the previous one (null at either end).
 */
export const screenshotsPage = async (view: BotView, links: ArtifactLinks, query: ListQuery) => {
  const after = afterOf(view.bot_id, query.cursor);
  const all = await screenshotsOf(view, links);
  const page = all.filter((s) => s.screenshot_id > after).slice(0, query.limit);
  const last = page[page.length - 1];
  const hasMore = last !== undefined && all.some((s) => s.screenshot_id > last.screenshot_id);
  const cursorAfter = (n: number) => encodeCursor([String(n), view.bot_id]);
  return {
    success: true,
    data: page,
    cursor: hasMore ? cursorAfter(last.screenshot_id) : null,
    prev_cursor: after === 0 ? null : cursorAfter(Math.max(0, after - query.limit)),
  };
};
