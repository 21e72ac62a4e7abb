import path from 'node:path';
import type { SecretBox } from '../crypto/secret-box';
import { MongoKeyVault } from './mongo-key-vault';
import type { KeyVault } from './port';
import { SqliteKeyVault } from './sqlite-key-vault';

/** Beside the read models' MongoDB when there is one (several instances share it), else a file in the data folder. */
export const openKeyVault = (config: { readonly mongoUrl?: string; readonly mongoDatabase?: string; readonly dataDir: string }, box: SecretBox): KeyVault =>
  config.mongoUrl
    ? new MongoKeyVault(config.mongoUrl, `${config.mongoDatabase || 'meeting_bot_service'}_keys`, box)
    : new SqliteKeyVault(path.join(config.dataDir, 'keys.sqlite3'), box);
