import type { ReadStore } from '../adapters/read-store/port';
import type { BotStorage } from '../domain/bot/bot-config';
import type { Projection } from './projection';

/**
 * Where each bot writes, as fixed in its BotCreated (secrets sealed), for the parts that reach its
 * artifacts: links, uploads the service holds, retention. Only bots of a team's own storage have one;
 * every other bot writes to the service's store.
 */
export type BotStorageView = {
  readonly id: string; // the bot id
  readonly team_id: string;
  readonly storage: Extract<BotStorage, { kind: 'customer' }>;
};

export const BOT_STORAGE = 'bot_storage';

export const botStorageViewProjection: Projection<BotStorageView> = {
  collection: BOT_STORAGE,
  documentId: (event) => (event.type === 'BotCreated' && event.data.config.storage.kind === 'customer' ? event.data.bot_id : null),
  evolve: (_doc, event) => {
    if (event.type !== 'BotCreated' || event.data.config.storage.kind !== 'customer') return null;
    return { id: event.data.bot_id, team_id: event.data.team_id, storage: event.data.config.storage };
  },
};

/** The team's storage a bot writes to; null for a bot of the service's store. */
export const customerStorageOf = async (readStore: ReadStore, botId: string): Promise<BotStorageView | null> =>
  (await readStore.get<BotStorageView>(BOT_STORAGE, botId))?.doc ?? null;

export const botStorageOf = async (readStore: ReadStore, botId: string): Promise<BotStorage> =>
  (await customerStorageOf(readStore, botId))?.storage ?? { kind: 'service' };
