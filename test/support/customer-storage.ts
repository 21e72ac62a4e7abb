import type * as Minio from 'minio';
import { bucketName, bucketPolicy, type Radosgw, type S3Keys } from './radosgw';

/** The spec's note 4: what each of the customer's two keys needs. */
export const INGEST_ACTIONS = ['s3:PutObject', 's3:PutObjectTagging', 's3:AbortMultipartUpload'];
export const SERVICE_ACTIONS = ['s3:GetObject', 's3:ListBucket', 's3:PutObject', 's3:DeleteObject'];

export interface CustomerStorage {
  readonly ingest: S3Keys;
  readonly service: S3Keys;
  /** a client with the service key, to look into the buckets */
  readonly serviceClient: Minio.Client;
  readonly artifactsBucket: string;
  readonly audioChunksBucket: string;
  readonly logsBucket: string;
  /** a PUT /v2/storage-config body for these buckets and keys */
  readonly body: (changes?: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * A customer's buckets on radosgw as the spec asks a customer to set them up: owned by the service key's
 * user, the ingest key allowed to put only, everything else denied. Artifacts and audio chunks share a
 * bucket (the spec allows it); logs have their own.
 */
export const customerStorage = async (
  gw: Radosgw,
  options: { readonly serviceActions?: readonly string[]; readonly ingestActions?: readonly string[] } = {},
): Promise<CustomerStorage> => {
  const service = await gw.createUser('customer-service');
  const ingest = await gw.createUser('customer-ingest');
  const serviceClient = gw.client(service);
  const artifactsBucket = bucketName('recordings');
  const logsBucket = bucketName('logs');
  for (const bucket of [artifactsBucket, logsBucket]) {
    await serviceClient.makeBucket(bucket);
    await serviceClient.setBucketPolicy(
      bucket,
      bucketPolicy(bucket, [
        { keys: ingest, allow: options.ingestActions ?? INGEST_ACTIONS },
        { keys: service, allow: options.serviceActions ?? SERVICE_ACTIONS },
      ]),
    );
  }
  return {
    ingest,
    service,
    serviceClient,
    artifactsBucket,
    audioChunksBucket: artifactsBucket,
    logsBucket,
    body: (changes = {}) => ({
      artifacts_bucket: artifactsBucket,
      audio_chunks_bucket: artifactsBucket,
      logs_bucket: logsBucket,
      endpoint: gw.endpoint,
      region: gw.region,
      force_path_style: true,
      ingest_access_key_id: ingest.accessKey,
      ingest_secret_access_key: ingest.secretKey,
      service_access_key_id: service.accessKey,
      service_secret_access_key: service.secretKey,
      ...changes,
    }),
  };
};
