import path from 'node:path';
import type Logger from 'bunyan';
import type { SecretBox } from '../adapters/crypto/secret-box';
import { openEventStore } from '../adapters/event-store';
import type { EventStore } from '../adapters/event-store/port';
import { openKeyVault } from '../adapters/key-vault';
import type { KeyVault } from '../adapters/key-vault/port';
import { PersonalDataEventStore } from '../adapters/personal-data/personal-data-event-store';
import type { ServiceConfig } from '../config';

export interface PersonalDataLog {
  /** the event log every part of the service uses: bots' personal fields sealed in it, opened when read; closing it closes the store */
  readonly eventStore: EventStore;
  /** the service's one key vault: bots' data keys, and the keys of stored vc credentials (src/capabilities/vc-joins.ts); closed on its own */
  readonly keyVault: KeyVault;
}

export type PersonalDataLogConfig = Pick<ServiceConfig, 'eventstoreUrl' | 'databaseUrl' | 'mongoUrl' | 'mongoDatabase' | 'dataDir'>;

/**
 * The event log as the service (src/service.ts) and the admin commands (src/admin-cli.ts) open it
 * (docs/decisions.md, issue 25): wrapped, so that a bot's personal fields are sealed with the bot's own
 * key from the key vault and every reader (commands, projections, `followLog`, the admin export) gets
 * them opened, or as placeholders once the bot's data is deleted. The key vault follows the event store
 * (PostgreSQL, MongoDB or a file in DATA_DIR), its keys sealed with the service's secret box.
 */
export const openPersonalDataLog = async (config: PersonalDataLogConfig, box: SecretBox, log?: Logger): Promise<PersonalDataLog> => {
  const store = await openEventStore({ eventstoreUrl: config.eventstoreUrl, databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'events.sqlite3') });
  let keyVault: KeyVault;
  try {
    keyVault = await openKeyVault({ databaseUrl: config.databaseUrl, mongoUrl: config.mongoUrl, mongoDatabase: config.mongoDatabase, dataDir: config.dataDir }, box);
  } catch (error) {
    await store.close();
    throw error;
  }
  return { eventStore: new PersonalDataEventStore(store, keyVault, log), keyVault };
};
