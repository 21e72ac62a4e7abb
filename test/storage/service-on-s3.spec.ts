import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type * as Minio from 'minio';
import { asBot } from '../support/as-bot';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { bucketName, sharedRadosgw } from '../support/radosgw';
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
});
