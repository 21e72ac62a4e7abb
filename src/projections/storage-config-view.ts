import type { DomainEvent } from '../domain/all-events';
import type { Projection } from './projection';

/** GET /v2/storage-config: the configuration as the spec shows it (no secret), per team. */
export type StorageConfigView = {
  readonly id: string; // the team id
  readonly storage_config_id: string;
  readonly artifacts_bucket: string;
  readonly audio_chunks_bucket: string;
  readonly logs_bucket: string;
  readonly endpoint: string;
  readonly region: string;
  readonly force_path_style: boolean;
  readonly allow_transient_spill: boolean;
  readonly ingest_access_key_id: string;
  readonly service_access_key_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  /** false once removed: the team's new bots use the service's storage */
  readonly enabled: boolean;
  readonly last_error_at: string | null;
  readonly last_error_message: string | null;
  readonly last_verified_at: string;
};

export const STORAGE_CONFIGS = 'storage_configs';

type ConfiguredData = Extract<DomainEvent, { type: 'StorageConfigured' }>['data'];

/** The configuration as a StorageConfigured records it; a verified replacement starts without an error. */
export const configuredView = ({ team_id, storage_config_id, settings, created_at, verified_at, at }: ConfiguredData): StorageConfigView => {
  const { ingest_secret_access_key: _ingest, service_secret_access_key: _service, ...shown } = settings;
  return { id: team_id, storage_config_id, ...shown, created_at, updated_at: at, enabled: true, last_error_at: null, last_error_message: null, last_verified_at: verified_at };
};

export const storageConfigViewProjection: Projection<StorageConfigView> = {
  collection: STORAGE_CONFIGS,
  documentId: (event) =>
    event.type === 'StorageConfigured' || event.type === 'StorageConfigRemoved' || event.type === 'StorageAccessFailed' ? event.data.team_id : null,
  evolve: (doc, event) => {
    if (event.type === 'StorageConfigured') return configuredView(event.data);
    if (event.type === 'StorageConfigRemoved' && doc) return { ...doc, enabled: false, updated_at: event.data.at };
    if (event.type === 'StorageAccessFailed' && doc) return { ...doc, last_error_at: event.data.at, last_error_message: event.data.message };
    return null;
  },
};
