import * as E from 'fp-ts/Either';
import type { Decider } from '../decider';
import type { StorageEvent, StorageSettings } from './storage-events';

/**
 * Sets the team's storage configuration, verified beforehand (the spec's note 1): the command carries
 * when the verification succeeded, and a new id used only when there is no configuration to replace.
 */
export interface ConfigureStorage {
  readonly type: 'ConfigureStorage';
  readonly team_id: string;
  readonly new_storage_config_id: string;
  readonly settings: StorageSettings;
  readonly verified_at: string;
  readonly now: string;
}

export interface RemoveStorageConfig {
  readonly type: 'RemoveStorageConfig';
  readonly team_id: string;
  readonly now: string;
}

export type StorageCommand = ConfigureStorage | RemoveStorageConfig;

export interface StorageRejection {
  readonly code: 'STORAGE_CONFIG_NOT_FOUND';
  readonly message: string;
}

export interface StorageConfig {
  readonly storage_config_id: string;
  readonly settings: StorageSettings;
  readonly created_at: string;
  readonly updated_at: string;
  readonly verified_at: string;
}

export interface StorageState {
  /** null: artifacts of new bots go to the service's own storage */
  readonly current: StorageConfig | null;
}

const initialState = (): StorageState => ({ current: null });

const accept = (...events: StorageEvent[]) => E.right<StorageRejection, readonly StorageEvent[]>(events);

const configure = (command: ConfigureStorage, { current }: StorageState) =>
  accept({
    type: 'StorageConfigured',
    data: {
      team_id: command.team_id,
      storage_config_id: current?.storage_config_id ?? command.new_storage_config_id,
      settings: command.settings,
      created_at: current?.created_at ?? command.now,
      verified_at: command.verified_at,
      at: command.now,
    },
  });

/** Deleting what does not exist is the spec's 404, also the second time. */
const remove = (command: RemoveStorageConfig, { current }: StorageState) =>
  current === null
    ? E.left<StorageRejection, readonly StorageEvent[]>({ code: 'STORAGE_CONFIG_NOT_FOUND', message: 'No storage configuration exists for this team' })
    : accept({ type: 'StorageConfigRemoved', data: { team_id: command.team_id, storage_config_id: current.storage_config_id, at: command.now } });

const decide = (command: StorageCommand, state: StorageState) => (command.type === 'ConfigureStorage' ? configure(command, state) : remove(command, state));

const evolve = (_state: StorageState, event: StorageEvent): StorageState => {
  switch (event.type) {
    case 'StorageConfigured': {
      const { storage_config_id, settings, created_at, verified_at, at } = event.data;
      return { current: { storage_config_id, settings, created_at, updated_at: at, verified_at } };
    }
    case 'StorageConfigRemoved':
      return { current: null };
  }
};

export const storageDecider: Decider<StorageCommand, StorageEvent, StorageState, StorageRejection> = { decide, evolve, initialState };
