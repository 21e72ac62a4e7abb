import * as E from 'fp-ts/Either';
import { toMillis } from '../codec-helpers';
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

/**
 * A failure seen while using a version of the configuration (`configured_at` names it: a replacement keeps
 * the id). Recorded only against the configuration in force, and a repeat of the last error only after an
 * hour, so that a bucket refusing for days does not write an event per retry.
 */
export interface RecordStorageAccessFailure {
  readonly type: 'RecordStorageAccessFailure';
  readonly team_id: string;
  readonly storage_config_id: string;
  readonly configured_at: string;
  readonly message: string;
  readonly now: string;
}

export type StorageCommand = ConfigureStorage | RemoveStorageConfig | RecordStorageAccessFailure;

export const REPEATED_ERROR_INTERVAL_MS = 60 * 60 * 1000;

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
  readonly last_error: { readonly at: string; readonly message: string } | null;
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

const recordFailure = (command: RecordStorageAccessFailure, { current }: StorageState) => {
  if (current === null || current.storage_config_id !== command.storage_config_id || current.updated_at !== command.configured_at) return accept();
  const last = current.last_error;
  if (last && last.message === command.message && toMillis(command.now) - toMillis(last.at) < REPEATED_ERROR_INTERVAL_MS) return accept();
  return accept({
    type: 'StorageAccessFailed',
    data: { team_id: command.team_id, storage_config_id: current.storage_config_id, message: command.message, at: command.now },
  });
};

const decide = (command: StorageCommand, state: StorageState) => {
  switch (command.type) {
    case 'ConfigureStorage':
      return configure(command, state);
    case 'RemoveStorageConfig':
      return remove(command, state);
    case 'RecordStorageAccessFailure':
      return recordFailure(command, state);
  }
};

const evolve = (state: StorageState, event: StorageEvent): StorageState => {
  switch (event.type) {
    case 'StorageConfigured': {
      const { storage_config_id, settings, created_at, verified_at, at } = event.data;
      return { current: { storage_config_id, settings, created_at, updated_at: at, verified_at, last_error: null } };
    }
    case 'StorageConfigRemoved':
      return { current: null };
    case 'StorageAccessFailed':
      return state.current ? { current: { ...state.current, last_error: { at: event.data.at, message: event.data.message } } } : state;
  }
};

export const storageDecider: Decider<StorageCommand, StorageEvent, StorageState, StorageRejection> = { decide, evolve, initialState };
