import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import type * as Minio from 'minio';
import { s3Client } from '../../src/adapters/object-store/s3-client';
import { describeS3Error } from '../../src/adapters/object-store/s3-errors';
import { parseS3Endpoint } from '../../src/adapters/object-store/s3-location';
import { DEFAULT_PART_SIZE, putInParts, type RetryPolicy } from '../../src/adapters/object-store/s3-upload';
import { bucketRoleOf, type S3UploadTarget } from '../../contract/bot-contract';
import type { Uploader } from './uploader';

/** A network blip or a busy server passes in seconds; a refusal is not retried (the spill or the failure report follows). */
export const BOT_UPLOAD_RETRY: RetryPolicy = { attempts: 4, backoffMs: [500, 2000, 5000] };

/**
 * UploadTarget kind `s3`: straight into the team's bucket with the put-only ingest key, multipart for
 * large files (one part in memory), each part retried on its own, and aborted if it cannot finish.
 */
export class S3Uploader implements Uploader {
  private readonly client: Minio.Client;

  constructor(
    private readonly target: S3UploadTarget,
    private readonly partSize: number = DEFAULT_PART_SIZE,
    private readonly retry: RetryPolicy = BOT_UPLOAD_RETRY,
  ) {
    const endpoint = parseS3Endpoint(target.endpoint);
    if (typeof endpoint === 'string') throw new Error(`upload endpoint ${target.endpoint} ${endpoint}`);
    this.client = s3Client(
      { endpoint, region: target.region, forcePathStyle: target.force_path_style },
      { accessKeyId: target.access_key_id, secretAccessKey: target.secret_access_key },
      { publicAddressesOnly: false },
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
      throw new Error(`bucket ${bucket} refused ${objectKey}: ${describeS3Error(error)}`);
    }
  }

  async upload(key: string, body: Buffer, contentType: string, artifactType: string): Promise<void> {
    await this.put(key, artifactType, body, contentType);
  }

  async uploadFile(key: string, file: string, contentType: string, artifactType: string): Promise<void> {
    await this.put(key, artifactType, fs.createReadStream(file), contentType);
  }
}
