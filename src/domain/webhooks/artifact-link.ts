/**
 * Links to artifacts expire (2 h), and a retry may come a day later, so a queued payload holds a
 * placeholder where each link goes; the sender mints the link at every attempt.
 */
export interface ArtifactLinkPlaceholder {
  readonly $artifact_link: string;
  readonly part: 'url' | 'expires_at';
}

export const artifactLink = (key: string, part: ArtifactLinkPlaceholder['part']): ArtifactLinkPlaceholder => ({ $artifact_link: key, part });

export const isArtifactLinkPlaceholder = (value: unknown): value is ArtifactLinkPlaceholder =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { $artifact_link?: unknown }).$artifact_link === 'string' &&
  ((value as { part?: unknown }).part === 'url' || (value as { part?: unknown }).part === 'expires_at');

/** Where the legacy `complete` event's `transcript` goes: read from the transcript artifact when sent. */
export interface LegacyTranscriptPlaceholder {
  readonly $legacy_transcript: string;
}

export const legacyTranscript = (key: string): LegacyTranscriptPlaceholder => ({ $legacy_transcript: key });

export const isLegacyTranscriptPlaceholder = (value: unknown): value is LegacyTranscriptPlaceholder =>
  typeof value === 'object' && value !== null && typeof (value as { $legacy_transcript?: unknown }).$legacy_transcript === 'string';
