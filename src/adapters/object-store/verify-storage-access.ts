import { randomBytes } from 'node:crypto';
import type * as Minio from 'minio';
import { s3Client } from './s3-client';
import { describeS3Error, failureOf, isNoSuchKey } from './s3-errors';
import { endpointUri, type S3Credentials, type S3Server } from './s3-location';

export interface StorageAccess extends S3Server {
  /** every bucket the configuration names; the same bucket may be named several times */
  readonly buckets: readonly string[];
  readonly ingest: S3Credentials;
  readonly service: S3Credentials;
}

export type VerificationResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Where the marker goes: beside the bots' prefixes (object keys start with a bot id), never among them. */
const markerKey = (nonce: string) => `storage-verification/${nonce}.txt`;

const failed = (reason: string): VerificationResult => ({ ok: false, reason });

/** What went wrong, for the customer: the bucket, which key, what it tried, and what the server or network said. */
const reasonFor = (error: unknown, access: StorageAccess, bucket: string, keyName: 'ingest' | 'service', action: string): string => {
  const said = describeS3Error(error);
  switch (failureOf(error)) {
    case 'unreachable':
      return `the endpoint ${endpointUri(access.endpoint)} could not be reached (${said})`;
    case 'refused_address':
      return `the endpoint ${endpointUri(access.endpoint)} is not on a public address (${said})`;
    case 'no_such_bucket':
      return `bucket "${bucket}" does not exist at ${endpointUri(access.endpoint)} (${said})`;
    case 'access_denied':
      return `the ${keyName} key may not ${action} in bucket "${bucket}" (${said})`;
    case 'invalid':
      return `bucket "${bucket}" cannot be used: ${said}`;
    default:
      return `the ${keyName} key could not ${action} in bucket "${bucket}" (${said})`;
  }
};

const readText = async (client: Minio.Client, bucket: string, key: string): Promise<string> =>
  Buffer.concat(await (await client.getObject(bucket, key)).toArray()).toString('utf8');

/**
 * The spec's note 1, per bucket: the ingest key writes a small marker; the service key reads it back (the
 * same bytes, or the two keys do not reach the same bucket), writes it and deletes it. Each step with the
 * credential that does it in production. The first failure is the answer.
 */
export const verifyStorageAccess = async (access: StorageAccess, options: { readonly publicAddressesOnly: boolean }): Promise<VerificationResult> => {
  const ingest = s3Client(access, access.ingest, options);
  const service = s3Client(access, access.service, options);
  for (const bucket of new Set(access.buckets)) {
    const nonce = randomBytes(16).toString('hex');
    const key = markerKey(nonce);
    const body = `storage verification ${nonce}`;
    try {
      await ingest.putObject(bucket, key, Buffer.from(body), body.length, { 'Content-Type': 'text/plain' });
    } catch (error) {
      return failed(reasonFor(error, access, bucket, 'ingest', 'write a marker object'));
    }
    let read: string;
    try {
      read = await readText(service, bucket, key);
    } catch (error) {
      await service.removeObject(bucket, key).catch(() => undefined);
      if (isNoSuchKey(error)) return failed(`the service key does not find the marker the ingest key wrote in bucket "${bucket}": the two key pairs point at different buckets`);
      return failed(reasonFor(error, access, bucket, 'service', 'read the marker object'));
    }
    if (read !== body) {
      await service.removeObject(bucket, key).catch(() => undefined);
      return failed(`the service key reads another object than the one the ingest key wrote in bucket "${bucket}": the two key pairs point at different buckets`);
    }
    try {
      await service.putObject(bucket, key, Buffer.from(`${body} (rewritten by the service key)`), undefined, { 'Content-Type': 'text/plain' });
    } catch (error) {
      await service.removeObject(bucket, key).catch(() => undefined);
      return failed(reasonFor(error, access, bucket, 'service', 'write'));
    }
    try {
      await service.removeObject(bucket, key);
    } catch (error) {
      return failed(reasonFor(error, access, bucket, 'service', 'delete the marker object'));
    }
  }
  return { ok: true };
};
