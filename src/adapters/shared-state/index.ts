import { checkpointStoreKind, type CheckpointStoreConfig } from '../checkpoint-store';
import { MongoSharedState } from './mongo-shared-state';
import type { SharedState } from './port';
import { PostgresSharedState } from './postgres-shared-state';
import { SqliteSharedState } from './sqlite-shared-state';

/** Shared state lives where the checkpoints and leases do (PostgreSQL, else MongoDB, else the SQLite file). */
export const openSharedState = async (config: CheckpointStoreConfig): Promise<SharedState> => {
  switch (checkpointStoreKind(config)) {
    case 'postgresql':
      return PostgresSharedState.connect(config.databaseUrl!);
    case 'mongodb':
      return MongoSharedState.connect(config.mongoUrl!, config.mongoDatabase);
    case 'sqlite':
      return new SqliteSharedState(config.sqlitePath);
  }
};
