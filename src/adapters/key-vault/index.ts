import path from 'node:path';
import type { SecretBox } from '../crypto/secret-box';
import { MongoKeyVault } from './mongo-key-vault';
import type { KeyVault } from './port';
import { PostgresKeyVault } from './postgres-key-vault';
import { SqliteKeyVault } from './sqlite-key-vault';

export interface KeyVaultConfig {
  readonly mongoUrl?: string | undefined;
  readonly mongoDatabase?: string | undefined;
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
}

/**
 * Where every instance that shares the stores finds it: beside the read models' MongoDB when there is one,
 * else in the event store's PostgreSQL, else a file in the data folder (one process, or several on one host).
 */
export const openKeyVault = async (config: KeyVaultConfig, box: SecretBox): Promise<KeyVault> => {
  if (config.mongoUrl) return new MongoKeyVault(config.mongoUrl, `${config.mongoDatabase || 'meeting_bot_service'}_keys`, box);
  if (config.databaseUrl) return PostgresKeyVault.connect(config.databaseUrl, box);
  return new SqliteKeyVault(path.join(config.dataDir, 'keys.sqlite3'), box);
};
