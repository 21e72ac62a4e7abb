import type { ArtifactLinks } from '../../adapters/artifact-links/port';
import { isArtifactLinkPlaceholder } from '../../domain/webhooks/artifact-link';

/**
 * The body of one attempt: the queued payload with every artifact link placeholder replaced by a link
 * minted now (valid 2 h from this attempt). A link that cannot be made is null.
 */
export const renderPayload = (payload: unknown, botId: string | null, links: ArtifactLinks): unknown => {
  if (isArtifactLinkPlaceholder(payload)) {
    const link = botId === null ? null : links.urlFor(botId, payload.$artifact_link);
    return link === null ? null : payload.part === 'url' ? link.url : link.expires_at;
  }
  if (Array.isArray(payload)) return payload.map((item) => renderPayload(item, botId, links));
  if (typeof payload === 'object' && payload !== null) {
    return Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, renderPayload(value, botId, links)]));
  }
  return payload;
};

/** The bot a delivery subject is about (`bot-<id>`), if it is about a bot. */
export const botOfSubject = (subject: string): string | null => (subject.startsWith('bot-') ? subject.slice('bot-'.length) : null);

export const subjectOfBot = (botId: string): string => `bot-${botId}`;
