import type { Projection } from './projection';

/**
 * Bots whose data the team deleted, until every store is clean of their objects: the work list of the
 * eraser (src/subscribers/bot-data), rebuilt from events alone, so a restart resumes an erasure cut short.
 */
export type BotDataErasureView = {
  readonly id: string; // the bot id
  readonly deleted_at: string;
  readonly erased_at: string | null;
  readonly pending: boolean;
};

export const BOT_DATA_ERASURES = 'bot_data_erasures';

export const botDataErasureProjection: Projection<BotDataErasureView> = {
  collection: BOT_DATA_ERASURES,
  documentId: (event) => (event.type === 'BotDataDeleted' || event.type === 'BotArtifactsErased' ? event.data.bot_id : null),
  evolve: (doc, event) => {
    if (event.type === 'BotDataDeleted') return doc ?? { id: event.data.bot_id, deleted_at: event.data.at, erased_at: null, pending: true };
    if (event.type === 'BotArtifactsErased' && doc !== null) return { ...doc, erased_at: event.data.at, pending: false };
    return null;
  },
  indexes: [[{ field: 'pending', direction: 'asc' }, { field: 'deleted_at', direction: 'asc' }]],
};
