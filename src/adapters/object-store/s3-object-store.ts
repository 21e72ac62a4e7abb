import type { Readable } from 'node:stream';
import type * as Minio from 'minio';
import { type DownloadLinkOptions, type ObjectStore, ObjectStoreError, type StoredObject } from './port';
import { servedContentType } from './served-content-type';
import { failureOf, isNoSuchKey, toObjectStoreError } from './s3-errors';
import { DEFAULT_PART_SIZE, putInParts } from './s3-upload';

/** One bucket of an S3-compatible server, through minio; links are presigned by the server's own keys. */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: Minio.Client,
    private readonly bucket: string,
    private readonly partSize: number = DEFAULT_PART_SIZE,
  ) {}

  async put(objectKey: string, body: Readable | Buffer, contentType: string): Promise<{ sizeBytes: number }> {
    try {
      return { sizeBytes: await putInParts(this.client, this.bucket, objectKey, body, contentType, this.partSize) };
    } catch (error) {
      throw toObjectStoreError(error, `storing ${objectKey} in bucket ${this.bucket}`);
    }
  }

  async get(objectKey: string): Promise<StoredObject | null> {
    try {
      const stat = await this.client.statObject(this.bucket, objectKey);
      const body = await this.client.getObject(this.bucket, objectKey);
      return { body, sizeBytes: stat.size, contentType: String(stat.metaData['content-type'] ?? 'application/octet-stream') };
    } catch (error) {
      if (isNoSuchKey(error)) return null;
      throw toObjectStoreError(error, `reading ${objectKey} from bucket ${this.bucket}`);
    }
  }

  async delete(objectKey: string): Promise<void> {
    try {
      await this.client.removeObject(this.bucket, objectKey);
    } catch (error) {
      if (isNoSuchKey(error)) return;
      throw toObjectStoreError(error, `deleting ${objectKey} from bucket ${this.bucket}`);
    }
  }

  /**
   * Lists the prefix and removes what it lists (in batches of the server's 1 000), then aborts the uploads left
   * unfinished there (their parts are data too). The latter needs ListBucketMultipartUploads, which a service
   * key may lack (the spec's list does not name it): refused, it is skipped, and the bucket's own lifecycle
   * rule for unfinished uploads is what clears them.
   */
  async deleteAll(prefix: string): Promise<readonly string[]> {
    try {
      const keys: string[] = [];
      for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
        if (typeof item.name === 'string') keys.push(item.name);
      }
      for (let start = 0; start < keys.length; start += 1000) {
        const failed = (await this.client.removeObjects(this.bucket, keys.slice(start, start + 1000))).filter((r) => r && typeof r === 'object' && 'Code' in r);
        if (failed.length > 0) throw new ObjectStoreError('access_denied', `deleting ${failed.length} objects under ${prefix} in bucket ${this.bucket} was refused`);
      }
      await this.abortUnfinishedUploads(prefix);
      return keys;
    } catch (error) {
      if (error instanceof ObjectStoreError) throw error;
      throw toObjectStoreError(error, `deleting everything under ${prefix} in bucket ${this.bucket}`);
    }
  }

  private async abortUnfinishedUploads(prefix: string): Promise<void> {
    try {
      const unfinished: string[] = [];
      for await (const upload of this.client.listIncompleteUploads(this.bucket, prefix, true)) unfinished.push(upload.key);
      for (const key of new Set(unfinished)) await this.client.removeIncompleteUpload(this.bucket, key);
    } catch (error) {
      if (failureOf(error) !== 'access_denied') throw error;
    }
  }

  /** Presigned (no request to the server); the served type overrides whatever the uploader stored. */
  async downloadUrl(objectKey: string, options: DownloadLinkOptions): Promise<string> {
    const served = servedContentType(options.contentType, objectKey);
    try {
      return await this.client.presignedGetObject(
        this.bucket,
        objectKey,
        options.ttlSeconds,
        { 'response-content-type': served.contentType, ...(served.disposition ? { 'response-content-disposition': served.disposition } : {}) },
        options.signedAt,
      );
    } catch (error) {
      throw new ObjectStoreError('invalid', `signing a link to ${objectKey}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
