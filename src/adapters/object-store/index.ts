import path from 'node:path';
import { LocalFolderObjectStore, type LocalLinkSigner } from './local-folder-object-store';
import type { ObjectStore } from './port';
import { s3Client } from './s3-client';
import { parseIngestKey, parseObjectStoreUrl, type S3Bucket, type S3Credentials } from './s3-location';
import { S3ObjectStore } from './s3-object-store';

export interface ObjectStoreConfig {
  /** Set: that S3-compatible bucket (see parseObjectStoreUrl). Unset: a folder under dataDir. */
  readonly objectStoreUrl?: string | undefined;
  /** OBJECT_STORE_INGEST_KEY: a put-only key of that bucket, for bots */
  readonly objectStoreIngestKey?: string | undefined;
  readonly dataDir: string;
  /** links to locally stored objects, served by the service itself */
  readonly signLocalLink: LocalLinkSigner;
}

export interface OpenedObjectStore {
  readonly store: ObjectStore;
  /** true when the service serves the objects itself (its artifact route is needed) */
  readonly local: boolean;
  /** where bots of the service's storage may put their artifacts themselves; null: through the service */
  readonly botUploads: { readonly bucket: S3Bucket; readonly credentials: S3Credentials } | null;
}

export const openObjectStore = (config: ObjectStoreConfig): OpenedObjectStore => {
  if (!config.objectStoreUrl) {
    return { store: new LocalFolderObjectStore(path.join(config.dataDir, 'artifacts'), config.signLocalLink), local: true, botUploads: null };
  }
  const { bucket, credentials } = parseObjectStoreUrl(config.objectStoreUrl);
  return {
    // The operator chose this endpoint: it may be on a private network.
    store: new S3ObjectStore(s3Client(bucket, credentials, { publicAddressesOnly: false }), bucket.bucket),
    local: false,
    botUploads: config.objectStoreIngestKey ? { bucket, credentials: parseIngestKey(config.objectStoreIngestKey) } : null,
  };
};
