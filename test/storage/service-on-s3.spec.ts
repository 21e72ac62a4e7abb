import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type * as Minio from 'minio';
import { asBot } from '../support/as-bot';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { bucketName, bucketPolicy, sharedRadosgw } from '../support/radosgw';
import { INGEST_ACTIONS, SERVICE_ACTIONS } from '../support/customer-storage';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import type { S3UploadTarget } from '../../contract/bot-contract';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { makeUploader } from '../../bot-runtime/uploaders/make-uploader';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the service with its artifacts on S3 (OBJECT_STORE_URL, Ceph radosgw)', function () {
  this.timeout(60_000);
  let t: TestService;
  let launcher: ScriptedLauncher;
  let api: ReturnType<typeof apiClient>;
  let owner: Minio.Client;
  let bucket: string;
  let endpoint: string;

  before(async () => {
    const gw = await sharedRadosgw();
    endpoint = gw.endpoint;
    const keys = await gw.createUser('service');
    bucket = bucketName('service');
    owner = gw.client(keys);
    await owner.makeBucket(bucket);
    const url = `s3+http://${encodeURIComponent(keys.accessKey)}:${encodeURIComponent(keys.secretKey)}@${gw.host}:${gw.port}/${bucket}?force_path_style=true`;
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 5, objectStoreUrl: url, overrides: { launcher } });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 10 })).api_key);
  });
  after(() => t?.stop());

  it('stores what a bot uploads in the bucket and links it presigned by the bucket’s server', async () => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Recorder' });
    const botId: string = created.body.data.bot_id;
    const bot = asBot(await launcher.waitForLaunch(botId));
    // Larger than one part of the S3 store (16 MiB), so the service stores it in parts.
    const recording = randomBytes(17 * 2 ** 20 + 3);
    assert.equal((await bot.upload('recording.mp4', recording, 'video/mp4')).status, 204);
    await bot.report({ kind: 'artifact', artifact_type: 'recording', key: 'recording.mp4', content_type: 'video/mp4', size_bytes: recording.length, at: new Date().toISOString() });

    const inBucket = Buffer.concat(await (await owner.getObject(bucket, `${botId}/recording.mp4`)).toArray());
    assert.equal(sha256(inBucket), sha256(recording));

    const [artifact] = (await api.get(`/v2/bots/${botId}`)).body.data.artifacts;
    const link = new URL(artifact.url);
    assert.equal(link.origin, endpoint, 'the link points at the bucket’s server, not at the service');
    assert.equal(link.pathname, `/${bucket}/${botId}/recording.mp4`);
    assert.equal(link.searchParams.get('X-Amz-Expires'), '7200', 'valid for 2 hours');
    assert.ok(Math.abs(Date.parse(artifact.url_expires_at) - (Date.now() + 7200_000)) < 5000);
    const download = await fetch(artifact.url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'video/mp4');
    assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(recording));
  });

  it('does not serve artifacts itself', async () => {
    const response = await fetch(`${t.url}/artifacts/6f1c1c3e-7a53-4d0e-9a43-2b6f3d7f3a10/recording.mp4?expires=9999999999&signature=x`);
    assert.notEqual(response.status, 200);
    assert.notEqual(response.status, 403, 'no signed-link route at all');
  });

  describe('with a put-only key for bots (OBJECT_STORE_INGEST_KEY)', () => {
    let withIngest: TestService;
    let ingestKey: string;
    let serviceBucket: string;
    let serviceOwner: Minio.Client;

    before(async () => {
      const gw = await sharedRadosgw();
      const service = await gw.createUser('service');
      const ingest = await gw.createUser('ingest');
      serviceBucket = bucketName('service');
      serviceOwner = gw.client(service);
      await serviceOwner.makeBucket(serviceBucket);
      await serviceOwner.setBucketPolicy(serviceBucket, bucketPolicy(serviceBucket, [
        { keys: ingest, allow: INGEST_ACTIONS },
        { keys: service, allow: [...SERVICE_ACTIONS, 's3:ListBucketMultipartUploads', 's3:ListMultipartUploadParts'] },
      ]));
      ingestKey = ingest.accessKey;
      withIngest = await startTestService({
        botSlots: 5,
        objectStoreUrl: `s3+http://${encodeURIComponent(service.accessKey)}:${encodeURIComponent(service.secretKey)}@${gw.host}:${gw.port}/${serviceBucket}?force_path_style=true`,
        objectStoreIngestKey: `${encodeURIComponent(ingest.accessKey)}:${encodeURIComponent(ingest.secretKey)}`,
        overrides: { launcher },
      });
    });
    after(() => withIngest?.stop());

    it('bots put straight into the service’s bucket with that key, never the service’s own', async () => {
      const ingestApi = apiClient(withIngest.url, (await createTeam(withIngest.url)).api_key);
      const created = await ingestApi.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Direct' });
      const botId: string = created.body.data.bot_id;
      const launch = await launcher.waitForLaunch(botId);
      const target = launch.job.upload as S3UploadTarget;
      assert.equal(target.kind, 's3');
      assert.equal(target.access_key_id, ingestKey);
      assert.deepEqual(target.buckets, { artifacts: serviceBucket, audio_chunks: serviceBucket, logs: serviceBucket });
      assert.equal(target.spill, null);

      const recording = randomBytes(3 * 2 ** 20);
      const artifacts = new ArtifactStore(makeUploader(launch.job), new HttpReporter({ baseUrl: launch.serviceUrl, token: launch.botToken }, botId), new BotLog(null));
      assert.equal(await artifacts.store('recording', 'recording.mp4', 'video/mp4', recording), true);
      assert.equal(sha256(Buffer.concat(await (await serviceOwner.getObject(serviceBucket, `${botId}/recording.mp4`)).toArray())), sha256(recording));
      const [artifact] = (await ingestApi.get(`/v2/bots/${botId}`)).body.data.artifacts;
      assert.equal(artifact.status, 'stored');
      assert.equal(sha256(Buffer.from(await (await fetch(artifact.url)).arrayBuffer())), sha256(recording));
    });
  });
});
