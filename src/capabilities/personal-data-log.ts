import path from 'node:path';
import type Logger from 'bunyan';
import type { SecretBox } from '../adapters/crypto/secret-box';
import type { DataKeyStore } from '../adapters/data-keys/port';
import { SqliteDataKeyStore } from '../adapters/data-keys/sqlite-data-key-store';
import type { EventStore } from '../adapters/event-store/port';
import { PersonalDataEventStore } from '../adapters/personal-data/personal-data-event-store';

export interface PersonalDataLog {
  /** the event log every part of the service uses: bots' personal fields sealed in it, opened when read */
  readonly eventStore: EventStore;
  readonly dataKeys: DataKeyStore;
  close(): Promise<void>;
}

/**
 * The event store as the service and the admin commands use it (docs/decisions.md, issue 25): wrapped so
 * that a bot's personal fields are sealed with the bot's own data key, kept beside the event log
 * (`DATA_DIR/data-keys.sqlite3`, the keys sealed with the service's secret box).
 */
export const openPersonalDataLog = (store: EventStore, settings: { readonly dataDir: string }, box: SecretBox, log?: Logger): PersonalDataLog => {
  const dataKeys = new SqliteDataKeyStore(path.join(settings.dataDir, 'data-keys.sqlite3'), box);
  return {
    eventStore: new PersonalDataEventStore(store, dataKeys, log),
    dataKeys,
    close: async () => {
      await store.close();
      await dataKeys.close();
    },
  };
};
