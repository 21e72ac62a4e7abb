import type { HttpUploadTarget, S3UploadTarget, UploadTarget } from '../../contract/bot-contract';
import type { SecretBox } from '../adapters/crypto/secret-box';
import { endpointUri, type S3Bucket, type S3Credentials } from '../adapters/object-store/s3-location';
import type { BotStorage } from '../domain/bot/bot-config';

/** The service's own bucket and the put-only key bots may use for it (OBJECT_STORE_INGEST_KEY). */
export interface ServiceBucketUploads {
  readonly bucket: S3Bucket;
  readonly credentials: S3Credentials;
}

const intoServiceBucket = ({ bucket, credentials }: ServiceBucketUploads, botId: string): S3UploadTarget => ({
  kind: 's3',
  endpoint: endpointUri(bucket.endpoint),
  region: bucket.region,
  force_path_style: bucket.forcePathStyle,
  buckets: { artifacts: bucket.bucket, audio_chunks: bucket.bucket, logs: bucket.bucket },
  access_key_id: credentials.accessKeyId,
  secret_access_key: credentials.secretAccessKey,
  prefix: botId,
  // A held copy would go to this very bucket: a failure here is a failure.
  spill: null,
});

/**
 * Where a bot sends its artifacts. A bot of a team's own storage writes straight into the team's buckets
 * with the ingest key only (the service key never leaves the service), and may hand the service a copy
 * when the team allows transient spill. A bot of the service's storage writes straight into the service's
 * bucket when the operator gave a put-only key for it, else through the service's internal API.
 */
export const uploadTargetFor =
  (secretBox: SecretBox, serviceUrl: string, serviceBucket: ServiceBucketUploads | null) =>
  (storage: BotStorage, botId: string, token: string): UploadTarget => {
    const service: HttpUploadTarget = { kind: 'http', baseUrl: serviceUrl, token };
    if (storage.kind === 'service') return serviceBucket ? intoServiceBucket(serviceBucket, botId) : service;
    const { settings } = storage;
    return {
      kind: 's3',
      endpoint: settings.endpoint,
      region: settings.region,
      force_path_style: settings.force_path_style,
      buckets: { artifacts: settings.artifacts_bucket, audio_chunks: settings.audio_chunks_bucket, logs: settings.logs_bucket },
      access_key_id: settings.ingest_access_key_id,
      secret_access_key: secretBox.open(settings.ingest_secret_access_key),
      prefix: botId,
      spill: settings.allow_transient_spill ? service : null,
    };
  };
