import * as t from 'io-ts';
import { dateTime, nullable, uri, uuid } from './response-kit';

/** Every field of the request but the two secret keys, then the configuration's own fields. */
export const StorageConfig = t.type({
  artifacts_bucket: t.string,
  audio_chunks_bucket: t.string,
  logs_bucket: t.string,
  endpoint: uri,
  region: t.string,
  force_path_style: t.boolean,
  allow_transient_spill: t.boolean,
  ingest_access_key_id: t.string,
  service_access_key_id: t.string,
  created_at: dateTime,
  updated_at: dateTime,
  enabled: t.boolean,
  last_error_at: nullable(dateTime),
  last_error_message: nullable(t.string),
  last_verified_at: dateTime,
  storage_config_id: uuid,
});
export type StorageConfig = t.TypeOf<typeof StorageConfig>;

export const StorageConfigRemoved = t.type({ enabled: t.literal(false), message: t.string, storage_config_id: uuid });
