import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { LocalFolderObjectStore } from '../../src/adapters/object-store/local-folder-object-store';
import { S3ObjectStore } from '../../src/adapters/object-store/s3-object-store';
import { MIN_PART_SIZE } from '../../src/adapters/object-store/s3-upload';
import { Signer } from '../../src/adapters/signing/signer';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import type { AppState } from '../../src/http/app-context';
import { serviceSignedLink } from '../../src/http/artifacts/artifact-links';
import { artifactsRouter } from '../../src/http/artifacts/artifacts-router';
import { errorEnvelope } from '../../src/http/middleware/error-envelope';
import { bucketName, sharedRadosgw } from '../support/radosgw';
import { objectStoreContract } from './object-store.contract';

objectStoreContract('local folder (links served by the service)', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'object-store-'));
  const signer = new Signer(new ServiceKeys([Buffer.alloc(32, 3)]));
  let base = '';
  const store = new LocalFolderObjectStore(folder, serviceSignedLink(signer, () => base));
  const app = new Koa<AppState>();
  app.use(errorEnvelope());
  app.use(artifactsRouter(store, signer, () => Date.now()).routes());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    store,
    partSize: MIN_PART_SIZE,
    cleanup: async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    },
  };
});

objectStoreContract('S3 (Ceph radosgw)', async () => {
  const gw = await sharedRadosgw();
  const keys = await gw.createUser('service');
  const bucket = bucketName('contract');
  await gw.client(keys).makeBucket(bucket);
  return { store: new S3ObjectStore(gw.client(keys), bucket, MIN_PART_SIZE), partSize: MIN_PART_SIZE, cleanup: async () => undefined };
});

describe('S3 object store: what deleteAll clears beyond the listed objects (Ceph radosgw)', function () {
  this.timeout(60_000);

  it('aborts the multipart uploads left unfinished under the prefix (their parts are data too), and leaves others', async () => {
    const gw = await sharedRadosgw();
    const keys = await gw.createUser('service');
    const client = gw.client(keys);
    const bucket = bucketName('unfinished');
    await client.makeBucket(bucket);
    const unfinished = async (key: string) => {
      const uploadId = await client.initiateNewMultipartUpload(bucket, key, {});
      await client.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: 1, headers: {} }, Buffer.alloc(MIN_PART_SIZE, 7));
    };
    await unfinished('bot-a/recording.mp4');
    await unfinished('bot-b/recording.mp4');
    const pending = async (prefix: string) => {
      const found: string[] = [];
      for await (const upload of client.listIncompleteUploads(bucket, prefix, true)) found.push(upload.key);
      return found;
    };
    assert.deepEqual(await pending('bot-a/'), ['bot-a/recording.mp4']);
    await new S3ObjectStore(client, bucket, MIN_PART_SIZE).deleteAll('bot-a/');
    assert.deepEqual(await pending('bot-a/'), []);
    assert.deepEqual(await pending('bot-b/'), ['bot-b/recording.mp4']);
  });
});
