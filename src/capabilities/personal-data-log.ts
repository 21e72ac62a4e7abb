import type Logger from 'bunyan';
import type { SecretBox } from '../adapters/crypto/secret-box';
import type { EventStore } from '../adapters/event-store/port';
import { openKeyVault, type KeyVaultConfig } from '../adapters/key-vault';
import type { KeyVault } from '../adapters/key-vault/port';
import { PersonalDataEventStore } from '../adapters/personal-data/personal-data-event-store';

export interface PersonalDataLog {
  /** the event log every part of the service uses: bots' personal fields sealed in it, opened when read */
  readonly eventStore: EventStore;
  /** the service's one key vault: bots' data keys, and the keys of stored vc credentials (src/capabilities/vc-joins.ts) */
  readonly keyVault: KeyVault;
  close(): Promise<void>;
}

/**
 * The event store as the service and the admin commands use it (docs/decisions.md, issue 25): wrapped so
 * that a bot's personal fields are sealed with the bot's own key from the key vault, which follows the
 * event store (PostgreSQL, MongoDB or a file in DATA_DIR, its keys sealed with the service's secret box).
 */
export const openPersonalDataLog = async (store: EventStore, config: KeyVaultConfig, box: SecretBox, log?: Logger): Promise<PersonalDataLog> => {
  let keyVault: KeyVault;
  try {
    keyVault = await openKeyVault(config, box);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    eventStore: new PersonalDataEventStore(store, keyVault, log),
    keyVault,
    close: async () => {
      await store.close();
      await keyVault.close();
    },
  };
};
