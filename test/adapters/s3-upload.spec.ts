import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type * as Minio from 'minio';
import { MIN_PART_SIZE, putInParts } from '../../src/adapters/object-store/s3-upload';
import { bucketName, bucketPolicy, type Radosgw, type S3Keys, sharedRadosgw } from '../support/radosgw';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The spec's ingest credential: PutObject, PutObjectTagging and AbortMultipartUpload, nothing else. */
const INGEST_ACTIONS = ['s3:PutObject', 's3:PutObjectTagging', 's3:AbortMultipartUpload'];

describe('uploads in parts with a put-only key (Ceph radosgw)', function () {
  this.timeout(60_000);
  let gw: Radosgw;
  let owner: Minio.Client;
  let ingest: Minio.Client;
  let bucket: string;

  before(async () => {
    gw = await sharedRadosgw();
    const ownerKeys = await gw.createUser('owner');
    const ingestKeys: S3Keys = await gw.createUser('ingest');
    bucket = bucketName('ingest');
    owner = gw.client(ownerKeys);
    ingest = gw.client(ingestKeys);
    await owner.makeBucket(bucket);
    await owner.setBucketPolicy(
      bucket,
      bucketPolicy(bucket, [
        { keys: ingestKeys, allow: INGEST_ACTIONS },
        { keys: ownerKeys, allow: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:ListBucket', 's3:ListBucketMultipartUploads', 's3:ListMultipartUploadParts'] },
      ]),
    );
  });

  it('the key really is put-only: it can neither read, list nor delete', async () => {
    await ingest.putObject(bucket, 'probe/marker', Buffer.from('x'), 1);
    await assert.rejects(ingest.statObject(bucket, 'probe/marker'), { code: 'AccessDenied' });
    await assert.rejects(ingest.listObjectsV2(bucket, 'probe/', true).toArray(), { code: 'AccessDenied' });
    await assert.rejects(ingest.removeObject(bucket, 'probe/marker'), { code: 'AccessDenied' });
  });

  it('stores a body of several parts, where minio’s own putObject fails because it lists uploads first', async () => {
    const bytes = randomBytes(2 * MIN_PART_SIZE + 4321);
    assert.equal(await putInParts(ingest, bucket, 'bot-1/recording.mp4', Readable.from([bytes]), 'video/mp4', MIN_PART_SIZE), bytes.length);
    const stored = Buffer.concat(await (await owner.getObject(bucket, 'bot-1/recording.mp4')).toArray());
    assert.equal(sha256(stored), sha256(bytes));
    assert.equal((await owner.statObject(bucket, 'bot-1/recording.mp4')).metaData['content-type'], 'video/mp4');

    const withMinioPartSize = randomBytes(64 * 2 ** 20 + 1);
    await assert.rejects(ingest.putObject(bucket, 'bot-1/minio.mp4', Readable.from([withMinioPartSize])), { code: 'AccessDenied' });
  });

  it('aborts the multipart upload when the body fails, leaving no parts behind', async () => {
    const failing = new Readable({
      read() {
        this.push(randomBytes(MIN_PART_SIZE));
        this.destroy(new Error('the recorder crashed'));
      },
    });
    let sent = 0;
    const slow = new Readable({
      read() {
        if (sent >= 2) return this.destroy(new Error('the recorder crashed'));
        sent += 1;
        this.push(randomBytes(MIN_PART_SIZE + 1));
      },
    });
    await assert.rejects(putInParts(ingest, bucket, 'bot-2/recording.mp4', slow, 'video/mp4', MIN_PART_SIZE), /the recorder crashed/);
    await assert.rejects(putInParts(ingest, bucket, 'bot-2/audio.mp3', failing, 'audio/mpeg', MIN_PART_SIZE), /the recorder crashed/);
    const pending = await owner.listIncompleteUploads(bucket, 'bot-2/', true).toArray();
    assert.deepEqual(pending, []);
    await assert.rejects(owner.statObject(bucket, 'bot-2/recording.mp4'), { code: 'NotFound' });
  });
});
