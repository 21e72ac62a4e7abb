import type { ArtifactStores } from '../../adapters/object-store/artifact-stores';
import type { ObjectStore } from '../../adapters/object-store/port';
import type { BotStorage } from '../../domain/bot/bot-config';

/** One artifact type per bucket role of a storage configuration (artifacts, audio chunks, logs). */
const ONE_TYPE_PER_BUCKET = ['recording', 'audio_chunk', 'bot_log'] as const;

/**
 * Every store that may hold objects of a bot: the service's own (a bot of the service's storage, and the
 * copies the service holds for a team's bucket), and each bucket of the bot's storage configuration, opened
 * with its service key (the same bucket named twice is one store).
 */
export const storesOfBot = (stores: ArtifactStores, storage: BotStorage): ObjectStore[] => [
  ...new Set([stores.service, ...ONE_TYPE_PER_BUCKET.map((type) => stores.forBot(storage, type))]),
];

export interface Erasure {
  /** the stores now holding nothing of the bot */
  readonly clean: ReadonlySet<ObjectStore>;
  /** the bot's keys (relative to its prefix) that were removed */
  readonly erased: readonly string[];
  /** what a store refused, one line each */
  readonly failures: readonly string[];
}

/**
 * Removes every object of the bot from every store that may hold it (its `<bot_id>/` prefix, unfinished
 * uploads included): what retention does at a bot's expiry, and what deleting a bot's data does. A store
 * that refuses (the team withdrew the service's access) is reported, and the caller tries again later.
 */
export const eraseBotObjects = async (stores: ArtifactStores, storage: BotStorage, botId: string): Promise<Erasure> => {
  const clean = new Set<ObjectStore>();
  const erased: string[] = [];
  const failures: string[] = [];
  for (const store of storesOfBot(stores, storage)) {
    try {
      const removed = await store.deleteAll(`${botId}/`);
      erased.push(...removed.map((key) => key.slice(botId.length + 1)));
      clean.add(store);
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { clean, erased, failures };
};
