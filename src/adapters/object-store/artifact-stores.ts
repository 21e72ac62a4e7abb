import { bucketRoleOf } from '../../../contract/bot-contract';
import type { BotStorage } from '../../domain/bot/bot-config';
import type { StorageSettings } from '../../domain/storage/storage-events';
import type { SecretBox } from '../crypto/secret-box';
import type { ObjectStore } from './port';
import { s3Client } from './s3-client';
import { parseS3Endpoint, type S3Server } from './s3-location';
import { S3ObjectStore } from './s3-object-store';

/** Where bots' artifacts are, for the service's own uses (links, copies it holds, retention). */
export interface ArtifactStores {
  /** the service's store: bots without a storage configuration, and the copies held for a team's bucket */
  readonly service: ObjectStore;
  /** the store holding a bot's artifacts of this type, opened with the service key of the bot's storage */
  forBot(storage: BotStorage, artifactType: string): ObjectStore;
}

export const serverOf = (settings: StorageSettings): S3Server => {
  const endpoint = parseS3Endpoint(settings.endpoint);
  // Checked when the configuration was put; a stored endpoint that no longer parses is a defect.
  if (typeof endpoint === 'string') throw new Error(`stored storage endpoint ${settings.endpoint} ${endpoint}`);
  return { endpoint, region: settings.region, forcePathStyle: settings.force_path_style };
};

export const artifactStores = (service: ObjectStore, secretBox: SecretBox, options: { readonly publicAddressesOnly: boolean }): ArtifactStores => {
  // One client per stored configuration version (its sealed secret differs each time it is put).
  const stores = new Map<string, ObjectStore>();
  return {
    service,
    forBot: (storage, artifactType) => {
      if (storage.kind === 'service') return service;
      const { settings } = storage;
      const bucket = { artifacts: settings.artifacts_bucket, audio_chunks: settings.audio_chunks_bucket, logs: settings.logs_bucket }[bucketRoleOf(artifactType)];
      const id = `${settings.service_secret_access_key.sealed}/${bucket}`;
      let store = stores.get(id);
      if (!store) {
        const credentials = { accessKeyId: settings.service_access_key_id, secretAccessKey: secretBox.open(settings.service_secret_access_key) };
        store = new S3ObjectStore(s3Client(serverOf(settings), credentials, options), bucket);
        stores.set(id, store);
      }
      return store;
    },
  };
};
