import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import * as Minio from 'minio';
import { s3Client } from '../../src/adapters/object-store/s3-client';
import { describeS3Error, failureOf } from '../../src/adapters/object-store/s3-errors';
import { parseS3Endpoint } from '../../src/adapters/object-store/s3-location';
import { DEFAULT_PART_SIZE, putInParts, type RetryPolicy } from '../../src/adapters/object-store/s3-upload';
import { bucketRoleOf, type S3UploadTarget } from '../../contract/bot-contract';
import { customerFacingReason } from '../net/customer-connections';
import type { Uploader } from './uploader';

/** A network blip or a busy server passes in seconds; a refusal is not retried (the spill or the failure report follows). */
export const BOT_UPLOAD_RETRY: RetryPolicy = { attempts: 4, backoffMs: [500, 2000, 5000] };

/** One request carries a part (16 MiB) at most: at 28 kB/s it takes 10 minutes; a bucket slower than that is given up. */
export const BOT_UPLOAD_REQUEST_DEADLINE_MS = 10 * 60_000;

/** What the bucket answered (its S3 error code and message) or what was wrong with the request, else the network's failure in safe words. */
const refusal = (error: unknown): string =>
  error instanceof Minio.S3Error || failureOf(error) === 'invalid' ? describeS3Error(error) : customerFacingReason(error);

/**
 * UploadTarget kind `s3`: straight into the team's bucket with the put-only ingest key, multipart for
 * large files (one part in memory), each part retried on its own, and aborted if it cannot finish.
 * `publicOnly`: the endpoint's address is checked on every connection (net/customer-connections.ts).
 */
export class S3Uploader implements Uploader {
  private readonly client: Minio.Client;

  constructor(
    private readonly target: S3UploadTarget,
    publicOnly: boolean,
    private readonly partSize: number = DEFAULT_PART_SIZE,
    private readonly retry: RetryPolicy = BOT_UPLOAD_RETRY,
    requestDeadlineMs: number = BOT_UPLOAD_REQUEST_DEADLINE_MS,
  ) {
    const endpoint = parseS3Endpoint(target.endpoint);
    if (typeof endpoint === 'string') throw new Error(`the upload endpoint ${endpoint}`);
    this.client = s3Client(
      { endpoint, region: target.region, forcePathStyle: target.force_path_style },
      { accessKeyId: target.access_key_id, secretAccessKey: target.secret_access_key },
      { publicAddressesOnly: publicOnly, requestDeadlineMs },
    );
  }

  private where(key: string, artifactType: string): { bucket: string; objectKey: string } {
    return { bucket: this.target.buckets[bucketRoleOf(artifactType)], objectKey: `${this.target.prefix}/${key}` };
  }

  /** What the bucket said, for the bot's log and its failure or spill report. */
  private async put(key: string, artifactType: string, body: Buffer | Readable, contentType: string): Promise<void> {
    const { bucket, objectKey } = this.where(key, artifactType);
    try {
      await putInParts(this.client, bucket, objectKey, body, contentType, this.partSize, this.retry);
    } catch (error) {
      throw new Error(`bucket ${bucket} refused ${objectKey}: ${refusal(error)}`);
    }
  }

  async upload(key: string, body: Buffer, contentType: string, artifactType: string): Promise<void> {
    await this.put(key, artifactType, body, contentType);
  }

  async uploadFile(key: string, file: string, contentType: string, artifactType: string): Promise<void> {
    await this.put(key, artifactType, fs.createReadStream(file), contentType);
  }
}
