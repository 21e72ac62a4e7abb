import { toMillis } from '../domain/codec-helpers';
import type { Projection } from './projection';

const DAY_MS = 24 * 60 * 60 * 1000;

interface KeptArtifact {
  readonly artifact_type: string;
  /** bot: in the bot's storage; service: a spilled copy the service holds */
  readonly held_by: 'bot' | 'service';
}

/**
 * Per bot, what is still kept and when it expires: the bot's end plus the retention fixed at its creation.
 * `due` marks bots with something to delete once `expires_at` has passed: the retention sweeper reads them
 * oldest first and stops at the first that is not due yet.
 */
export type ArtifactRetentionView = {
  readonly id: string; // the bot id
  readonly retention_days: number;
  readonly expires_at: string | null;
  readonly kept: Readonly<Record<string, KeptArtifact>>;
  readonly due: boolean;
};

export const ARTIFACT_RETENTION = 'artifact_retention';

const TOUCHED_BY: ReadonlySet<string> = new Set(['BotCreated', 'ArtifactStored', 'ArtifactSpilled', 'ArtifactsExpired', 'BotCompleted', 'BotFailed', 'BotDataDeleted']);

const settled = (doc: Omit<ArtifactRetentionView, 'due'>): ArtifactRetentionView => ({
  ...doc,
  due: doc.expires_at !== null && Object.keys(doc.kept).length > 0,
});

export const artifactRetentionProjection: Projection<ArtifactRetentionView> = {
  collection: ARTIFACT_RETENTION,
  // The sweep reads the due ones in expiry order and stops at the first not due yet.
  indexes: [[{ field: 'due', direction: 'asc' }, { field: 'expires_at', direction: 'asc' }, { field: 'id', direction: 'asc' }]],
  documentId: (event) => (TOUCHED_BY.has(event.type) && 'bot_id' in event.data ? event.data.bot_id : null),
  evolve: (doc, event) => {
    if (event.type === 'BotCreated') return settled({ id: event.data.bot_id, retention_days: event.data.config.retention_days, expires_at: null, kept: {} });
    if (doc === null) return null;
    switch (event.type) {
      case 'ArtifactStored':
      case 'ArtifactSpilled': {
        const held_by = event.type === 'ArtifactStored' ? 'bot' : 'service';
        return settled({ ...doc, kept: { ...doc.kept, [event.data.key]: { artifact_type: event.data.artifact_type, held_by } } });
      }
      case 'ArtifactsExpired':
        return settled({ ...doc, kept: Object.fromEntries(Object.entries(doc.kept).filter(([key]) => !event.data.keys.includes(key))) });
      // The deletion of the bot's data erases everything: nothing is left for retention.
      case 'BotDataDeleted':
        return settled({ ...doc, kept: {} });
      case 'BotCompleted':
      case 'BotFailed':
        return settled({ ...doc, expires_at: new Date(toMillis(event.data.at) + doc.retention_days * DAY_MS).toISOString() });
      default:
        return null;
    }
  },
};
