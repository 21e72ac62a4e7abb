import { MemoryReadStore } from './memory-read-store';
import { MongoReadStore } from './mongo-read-store';
import type { ReadStore } from './port';

export interface ReadStoreConfig {
  /** Set: MongoDB at this URL. Unset: in memory, rebuilt from the event log at start. */
  readonly mongoUrl?: string;
  readonly mongoDatabase?: string;
}

const DEFAULT_DATABASE = 'meeting_bot_service';

export const openReadStore = async (config: ReadStoreConfig): Promise<ReadStore> =>
  config.mongoUrl ? MongoReadStore.connect(config.mongoUrl, config.mongoDatabase || DEFAULT_DATABASE) : new MemoryReadStore();
