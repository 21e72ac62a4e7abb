import { MongoCheckpointStore } from './mongo-checkpoint-store';
import type { CheckpointStore } from './port';
import { PostgresCheckpointStore } from './postgres-checkpoint-store';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store';

export interface CheckpointStoreConfig {
  readonly databaseUrl?: string | undefined;
  readonly mongoUrl?: string | undefined;
  readonly mongoDatabase: string;
  readonly sqlitePath: string;
}

export type CheckpointStoreKind = 'postgresql' | 'mongodb' | 'sqlite';

/**
 * Checkpoints and leases follow the shared stores: in the PostgreSQL event store's database, else beside
 * MongoDB read models, else in a SQLite file in the data folder (one host).
 */
export const checkpointStoreKind = (config: Omit<CheckpointStoreConfig, 'mongoDatabase' | 'sqlitePath'>): CheckpointStoreKind =>
  config.databaseUrl ? 'postgresql' : config.mongoUrl ? 'mongodb' : 'sqlite';

/** Connects now: a server that cannot be reached fails the start with its address. */
export const openCheckpointStore = async (config: CheckpointStoreConfig): Promise<CheckpointStore> => {
  switch (checkpointStoreKind(config)) {
    case 'postgresql':
      return PostgresCheckpointStore.connect(config.databaseUrl!);
    case 'mongodb':
      return MongoCheckpointStore.connect(config.mongoUrl!, config.mongoDatabase);
    case 'sqlite':
      return new SqliteCheckpointStore(config.sqlitePath);
  }
};
