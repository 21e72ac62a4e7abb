import path from 'node:path';
import { MemoryReadStore } from './memory-read-store';
import { MongoReadStore } from './mongo-read-store';
import type { ReadStore } from './port';
import { SqliteReadStore } from './sqlite-read-store';

/** Where read models live: a SQLite file of this process (the default), its memory, or a shared MongoDB. */
export type ReadStoreKind = 'sqlite' | 'memory' | 'mongodb';

export interface ReadStoreConfig {
  /** Set: MongoDB at this URL, shared by every instance. */
  readonly mongoUrl?: string | undefined;
  readonly mongoDatabase?: string;
  /** Without MongoDB: `sqlite` (a file that outlives restarts, the default) or `memory` (rebuilt from the log at every start). */
  readonly embedded?: 'sqlite' | 'memory' | undefined;
  readonly sqlitePath: string;
}

/** The embedded read store's file in the data folder. */
export const readModelsFile = (dataDir: string): string => path.join(dataDir, 'read-models.sqlite3');

const DEFAULT_DATABASE = 'meeting_bot_service';

export const readStoreKind = (config: Omit<ReadStoreConfig, 'sqlitePath'>): ReadStoreKind => (config.mongoUrl ? 'mongodb' : config.embedded ?? 'sqlite');

export const openReadStore = async (config: ReadStoreConfig): Promise<ReadStore> => {
  switch (readStoreKind(config)) {
    case 'mongodb':
      return MongoReadStore.connect(config.mongoUrl!, config.mongoDatabase || DEFAULT_DATABASE);
    case 'memory':
      return new MemoryReadStore();
    case 'sqlite':
      return new SqliteReadStore(config.sqlitePath);
  }
};
