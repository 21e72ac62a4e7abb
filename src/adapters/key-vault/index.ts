import path from 'node:path';
import { checkpointStoreKind, type CheckpointStoreKind } from '../checkpoint-store';
import type { SecretBox } from '../crypto/secret-box';
import { moveEarlierKeyCollection, moveEarlierKeyFiles, moveEarlierKeyTable } from './earlier-key-stores';
import type { KeyRecords } from './key-records';
import { keyVaultDatabase, MongoKeyRecords } from './mongo-key-records';
import type { KeyVault } from './port';
import { PostgresKeyRecords } from './postgres-key-records';
import { openSealedKeyVault } from './sealed-key-vault';
import { SqliteKeyRecords } from './sqlite-key-records';

export interface KeyVaultConfig {
  readonly databaseUrl?: string | undefined;
  readonly mongoUrl?: string | undefined;
  readonly mongoDatabase: string;
  readonly dataDir: string;
}

/**
 * The vault follows the event store as the checkpoints do, so that every instance sharing the log shares
 * the keys: in the PostgreSQL event store's database, else in MongoDB (a database of its own beside the
 * read models'), else in a SQLite file in the data folder (one host).
 */
export const keyVaultKind = (config: Pick<KeyVaultConfig, 'databaseUrl' | 'mongoUrl'>): CheckpointStoreKind => checkpointStoreKind(config);

const openRecords = async (config: KeyVaultConfig): Promise<KeyRecords> => {
  switch (keyVaultKind(config)) {
    case 'postgresql':
      return PostgresKeyRecords.connect(config.databaseUrl!);
    case 'mongodb':
      return MongoKeyRecords.connect(config.mongoUrl!, keyVaultDatabase(config.mongoDatabase));
    case 'sqlite':
      return new SqliteKeyRecords(path.join(config.dataDir, 'key-vault.sqlite3'));
  }
};

/**
 * Connects now (an unreachable server fails the start), moves in the keys an earlier version kept in its
 * own stores (the SQLite files `keys.sqlite3` and `data-keys.sqlite3`, MongoDB's `credential_keys`), and
 * seals again under the current service key those sealed under a previous one.
 */
export const openKeyVault = async (config: KeyVaultConfig, box: SecretBox): Promise<KeyVault> => {
  const records = await openRecords(config);
  try {
    await moveEarlierKeyFiles(records, config.dataDir);
    if (config.databaseUrl) await moveEarlierKeyTable(records, config.databaseUrl);
    if (config.mongoUrl) await moveEarlierKeyCollection(records, { url: config.mongoUrl, database: keyVaultDatabase(config.mongoDatabase) });
    return await openSealedKeyVault(records, box);
  } catch (error) {
    await records.close().catch(() => undefined);
    throw error;
  }
};
