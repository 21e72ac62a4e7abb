import type { ArtifactLink } from '../../adapters/artifact-links/port';
import { isArtifactLinkPlaceholder, isLegacyTranscriptPlaceholder } from '../../domain/webhooks/artifact-link';

/** The artifact keys whose links a queued payload needs. */
export const artifactKeysIn = (payload: unknown): string[] => {
  if (isArtifactLinkPlaceholder(payload)) return [payload.$artifact_link];
  if (Array.isArray(payload)) return payload.flatMap(artifactKeysIn);
  if (typeof payload === 'object' && payload !== null) return Object.values(payload).flatMap(artifactKeysIn);
  return [];
};

/** The transcript artifacts whose content a queued payload carries (legacy `complete`). */
export const transcriptKeysIn = (payload: unknown): string[] => {
  if (isLegacyTranscriptPlaceholder(payload)) return [payload.$legacy_transcript];
  if (Array.isArray(payload)) return payload.flatMap(transcriptKeysIn);
  if (typeof payload === 'object' && payload !== null) return Object.values(payload).flatMap(transcriptKeysIn);
  return [];
};

/**
 * The body of one attempt: the queued payload with every artifact link placeholder replaced by a link
 * minted now (valid 2 h from this attempt), and every transcript placeholder by the transcript read now.
 * A link that cannot be made, or a transcript that cannot be read, is null.
 */
export const renderPayload = (payload: unknown, links: ReadonlyMap<string, ArtifactLink | null>, transcripts: ReadonlyMap<string, unknown> = new Map()): unknown => {
  if (isArtifactLinkPlaceholder(payload)) {
    const link = links.get(payload.$artifact_link) ?? null;
    return link === null ? null : payload.part === 'url' ? link.url : link.expires_at;
  }
  if (isLegacyTranscriptPlaceholder(payload)) return transcripts.get(payload.$legacy_transcript) ?? null;
  if (Array.isArray(payload)) return payload.map((item) => renderPayload(item, links, transcripts));
  if (typeof payload === 'object' && payload !== null) {
    return Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, renderPayload(value, links, transcripts)]));
  }
  return payload;
};

/** The bot a delivery subject is about (`bot-<id>`), if it is about a bot. */
export const botOfSubject = (subject: string): string | null => (subject.startsWith('bot-') ? subject.slice('bot-'.length) : null);

export const subjectOfBot = (botId: string): string => `bot-${botId}`;
