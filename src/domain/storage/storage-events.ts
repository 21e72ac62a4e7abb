import * as t from 'io-ts';
import { eventCodec, IsoInstant, Sealed } from '../codec-helpers';

/** The spec's storage configuration resource, as stored: secrets sealed, access key ids in clear. */
export const StorageSettings = t.type({
  artifacts_bucket: t.string,
  audio_chunks_bucket: t.string,
  logs_bucket: t.string,
  endpoint: t.string,
  region: t.string,
  force_path_style: t.boolean,
  allow_transient_spill: t.boolean,
  ingest_access_key_id: t.string,
  ingest_secret_access_key: Sealed,
  service_access_key_id: t.string,
  service_secret_access_key: Sealed,
});
export type StorageSettings = t.TypeOf<typeof StorageSettings>;

/**
 * The team's storage configuration, accepted after its verification (`verified_at`). A replacement keeps
 * the configuration's id and `created_at`; the whole settings are recorded every time, so that what any
 * bot was given can be read from history alone.
 */
export const StorageConfigured = eventCodec('StorageConfigured', {
  team_id: t.string,
  storage_config_id: t.string,
  settings: StorageSettings,
  created_at: IsoInstant,
  verified_at: IsoInstant,
  at: IsoInstant,
});

/** Back to the service's own storage for new bots; the settings stay in history for the bots that used them. */
export const StorageConfigRemoved = eventCodec('StorageConfigRemoved', { team_id: t.string, storage_config_id: t.string, at: IsoInstant });

/**
 * Using the configuration failed (a bot's upload, a held copy's upload, a retention deletion): shown as
 * the configuration's `last_error_at` and `last_error_message` until it is replaced.
 */
export const StorageAccessFailed = eventCodec('StorageAccessFailed', {
  team_id: t.string,
  storage_config_id: t.string,
  message: t.string,
  at: IsoInstant,
});

export const StorageEvent = t.union([StorageConfigured, StorageConfigRemoved, StorageAccessFailed]);
export type StorageEvent = t.TypeOf<typeof StorageEvent>;

export const storageStreamName = (teamId: string): string => `storage-${teamId}`;
