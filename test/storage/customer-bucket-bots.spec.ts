import { existsSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import type { S3UploadTarget } from '../../contract/bot-contract';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { makeSpillUploader, makeUploader } from '../../bot-runtime/uploaders/make-uploader';
import { S3Uploader } from '../../bot-runtime/uploaders/s3-uploader';
import { MIN_PART_SIZE, NO_RETRY } from '../../src/adapters/object-store/s3-upload';
import { SPILLED_ARTIFACTS, type SpilledArtifactsView } from '../../src/projections/spilled-artifact-view';
import { customerStorage, type CustomerStorage, INGEST_ACTIONS, SERVICE_ACTIONS } from '../support/customer-storage';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { bucketPolicy, type Radosgw, sharedRadosgw } from '../support/radosgw';
import { ScriptedLauncher, type ScriptedLaunch } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const readObject = async (customer: CustomerStorage, bucket: string, key: string) =>
  Buffer.concat(await (await customer.serviceClient.getObject(bucket, key)).toArray());

/** The bot runtime's own artifact path (no browser): what a running bot does with what it recorded. */
const botArtifacts = (launch: ScriptedLaunch, uploader = makeUploader(launch.job)) =>
  new ArtifactStore(
    uploader,
    new HttpReporter({ baseUrl: launch.serviceUrl, token: launch.botToken }, launch.job.bot_id),
    new BotLog(null),
    Date.now,
    makeSpillUploader(launch.job.upload, launch.job.bot_id),
  );

describe('bots writing into a team’s own buckets (Ceph radosgw)', function () {
  this.timeout(60_000);
  let gw: Radosgw;
  let t: TestService;
  let launcher: ScriptedLauncher;

  before(async () => {
    gw = await sharedRadosgw();
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 50, overrides: { launcher, spillRetryMs: 100 } });
  });
  after(() => t?.stop());

  const newTeam = async () => apiClient(t.url, (await createTeam(t.url)).api_key);

  const startBot = async (api: ReturnType<typeof apiClient>) => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Recorder', allow_multiple_bots: true });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId: string = created.body.data.bot_id;
    return { botId, launch: await launcher.waitForLaunch(botId) };
  };

  const artifactsOf = async (api: ReturnType<typeof apiClient>, botId: string) => (await api.get(`/v2/bots/${botId}`)).body.data.artifacts as any[];

  it('a bot gets only the ingest key, writes each artifact into its bucket under its id, and links come presigned from the bucket', async () => {
    const api = await newTeam();
    const customer = await customerStorage(gw);
    assert.equal((await api.put('/v2/storage-config', customer.body())).status, 200);
    const { botId, launch } = await startBot(api);

    const target = launch.job.upload as S3UploadTarget;
    assert.deepEqual(target, {
      kind: 's3',
      endpoint: gw.endpoint,
      region: gw.region,
      force_path_style: true,
      buckets: { artifacts: customer.artifactsBucket, audio_chunks: customer.artifactsBucket, logs: customer.logsBucket },
      access_key_id: customer.ingest.accessKey,
      secret_access_key: customer.ingest.secretKey,
      prefix: botId,
      spill: null,
    });
    assert.ok(!JSON.stringify(launch.job).includes(customer.service.secretKey), 'the service key never reaches the bot');

    const artifacts = botArtifacts(launch, new S3Uploader(target, !launch.job.private_addresses_allowed, MIN_PART_SIZE));
    const recording = randomBytes(2 * MIN_PART_SIZE + 777);
    assert.equal(await artifacts.store('recording', 'recording.mp4', 'video/mp4', recording), true);
    assert.equal(await artifacts.store('audio_chunk', 'audio_chunks/000001.webm', 'audio/webm', Buffer.from('chunk')), true);
    assert.equal(await artifacts.store('bot_log', 'bot.log', 'text/plain; charset=utf-8', Buffer.from('log line\n')), true);

    assert.equal(sha256(await readObject(customer, customer.artifactsBucket, `${botId}/recording.mp4`)), sha256(recording));
    assert.equal((await readObject(customer, customer.artifactsBucket, `${botId}/audio_chunks/000001.webm`)).toString(), 'chunk');
    assert.equal((await readObject(customer, customer.logsBucket, `${botId}/bot.log`)).toString(), 'log line\n');

    const listed = await artifactsOf(api, botId);
    assert.deepEqual(listed.map((a) => [a.key, a.status, a.size_bytes]), [
      ['recording.mp4', 'stored', recording.length],
      ['audio_chunks/000001.webm', 'stored', 5],
      ['bot.log', 'stored', 9],
    ]);
    const log = listed.find((a) => a.key === 'bot.log');
    assert.equal(new URL(log.url).origin, gw.endpoint);
    assert.equal(new URL(log.url).pathname, `/${customer.logsBucket}/${botId}/bot.log`);
    assert.equal(new URL(log.url).searchParams.get('X-Amz-Credential')?.split('/')[0], customer.service.accessKey, 'signed with the service key');
    const download = await fetch(listed[0].url);
    assert.equal(download.status, 200);
    assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(recording));

    // The service keeps no copy, and takes none: the bot's artifacts go to the team's bucket.
    const upload = await fetch(`${launch.serviceUrl}/internal/bots/${botId}/artifacts/other.txt`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${launch.botToken}`, 'content-type': 'text/plain' },
      body: 'x',
    });
    assert.equal(upload.status, 403);
  });

  it('replacing and deleting the configuration move nothing: earlier bots keep their bucket and links; new bots follow the change', async () => {
    const api = await newTeam();
    const first = await customerStorage(gw);
    const second = await customerStorage(gw);
    assert.equal((await api.put('/v2/storage-config', first.body())).status, 200);
    const early = await startBot(api);
    await botArtifacts(early.launch).store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('first recording'));

    assert.equal((await api.put('/v2/storage-config', second.body())).status, 200);
    const middle = await startBot(api);
    assert.equal((middle.launch.job.upload as S3UploadTarget).buckets.artifacts, second.artifactsBucket);
    await botArtifacts(middle.launch).store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('second recording'));

    assert.equal((await api.delete('/v2/storage-config')).status, 200);
    const late = await startBot(api);
    assert.equal(late.launch.job.upload.kind, 'http', 'back to the service’s storage for new bots');

    for (const [bot, text, customer] of [
      [early, 'first recording', first],
      [middle, 'second recording', second],
    ] as const) {
      const [artifact] = await artifactsOf(api, bot.botId);
      assert.equal(new URL(artifact.url).pathname, `/${customer.artifactsBucket}/${bot.botId}/recording.mp3`);
      const download = await fetch(artifact.url);
      assert.equal(download.status, 200);
      assert.equal(await download.text(), text);
    }
  });

  it('when the team withdraws the service’s access, older artifacts answer a clear error, never a 5xx', async () => {
    const api = await newTeam();
    const customer = await customerStorage(gw);
    assert.equal((await api.put('/v2/storage-config', customer.body())).status, 200);
    const { botId, launch } = await startBot(api);
    await botArtifacts(launch).store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('audio'));
    await gw.suspendUser(customer.service);

    const details = await api.get(`/v2/bots/${botId}`);
    assert.equal(details.status, 200);
    const download = await fetch(details.body.data.artifacts[0].url);
    assert.equal(download.status, 403);
    assert.match(await download.text(), /<Code>(AccessDenied|UserSuspended)<\/Code>/);
  });

  describe('a bucket that refuses, then accepts', () => {
    const refusingThenAccepting = async (allowSpill: boolean) => {
      const api = await newTeam();
      const customer = await customerStorage(gw);
      assert.equal((await api.put('/v2/storage-config', customer.body({ allow_transient_spill: allowSpill }))).status, 200);
      const { botId, launch } = await startBot(api);
      // The bucket takes every put away (a policy mistake, say), and later gives it back.
      const policy = (ingestActions: readonly string[], serviceActions: readonly string[]) =>
        bucketPolicy(customer.artifactsBucket, [
          { keys: customer.ingest, allow: ingestActions },
          { keys: customer.service, allow: serviceActions },
        ]);
      const noPuts = (actions: readonly string[]) => actions.filter((a) => a !== 's3:PutObject');
      await customer.serviceClient.setBucketPolicy(customer.artifactsBucket, policy(noPuts(INGEST_ACTIONS), noPuts(SERVICE_ACTIONS)));
      const restore = () => customer.serviceClient.setBucketPolicy(customer.artifactsBucket, policy(INGEST_ACTIONS, SERVICE_ACTIONS));
      return { api, customer, botId, launch, restore };
    };

    it('without transient spill the artifact is reported failed and lost, and the list says why', async () => {
      const { api, customer, botId, launch, restore } = await refusingThenAccepting(false);
      assert.equal(launch.job.upload.kind === 's3' && launch.job.upload.spill, null);
      const stored = await botArtifacts(launch, new S3Uploader(launch.job.upload as S3UploadTarget, !launch.job.private_addresses_allowed, MIN_PART_SIZE, NO_RETRY)).store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('audio'));
      assert.equal(stored, false);
      await restore();
      await t.service.spillUploader.runNow();
      const [artifact] = await artifactsOf(api, botId);
      assert.equal(artifact.status, 'failed');
      assert.match(artifact.status_message, /AccessDenied/);
      assert.equal(artifact.url, null);
      assert.equal(artifact.url_expires_at, null);
      await assert.rejects(customer.serviceClient.statObject(customer.artifactsBucket, `${botId}/recording.mp3`), { code: 'NotFound' });

      const config = (await api.get('/v2/storage-config')).body.data;
      assert.match(config.last_error_message, /^A bot could not store recording\.mp3: bucket .* refused .*AccessDenied/);
      assert.ok(Date.parse(config.last_error_at) > Date.parse(config.last_verified_at));
      const replaced = await api.put('/v2/storage-config', customer.body());
      assert.equal(replaced.body.data.last_error_at, null, 'a verified replacement clears the error');
      assert.equal(replaced.body.data.last_error_message, null);
    });

    it('with transient spill the service holds a copy, offers it until the bucket accepts it, then deletes its copy', async () => {
      const { api, customer, botId, launch, restore } = await refusingThenAccepting(true);
      assert.deepEqual((launch.job.upload as S3UploadTarget).spill, { kind: 'http', baseUrl: launch.serviceUrl, token: launch.botToken });
      const recording = randomBytes(300_000);
      const stored = await botArtifacts(launch).store('recording', 'recording.mp3', 'audio/mpeg', recording);
      assert.equal(stored, true);
      assert.equal(existsSync(path.join(t.dataDir, 'artifacts', botId, 'recording.mp3')), true, 'the service holds a copy');

      let [artifact] = await artifactsOf(api, botId);
      assert.equal(artifact.status, 'spilled');
      assert.match(artifact.status_message, /AccessDenied/);
      assert.ok(artifact.url.startsWith(t.url), 'while the service holds it, the service serves it');
      assert.equal(sha256(Buffer.from(await (await fetch(artifact.url)).arrayBuffer())), sha256(recording));
      await t.service.spillUploader.runNow();
      assert.equal((await artifactsOf(api, botId))[0].status, 'spilled', 'the bucket still refuses');

      await restore();
      for (let i = 0; i < 100 && (await artifactsOf(api, botId))[0].status !== 'stored'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      [artifact] = await artifactsOf(api, botId);
      assert.equal(artifact.status, 'stored');
      assert.equal(artifact.status_message, null);
      assert.equal(new URL(artifact.url).origin, gw.endpoint);
      assert.equal(sha256(await readObject(customer, customer.artifactsBucket, `${botId}/recording.mp3`)), sha256(recording));
      assert.equal(existsSync(path.join(t.dataDir, 'artifacts', botId, 'recording.mp3')), false, 'the service deleted its copy');
      assert.equal((await t.service.readStore.get<SpilledArtifactsView>(SPILLED_ARTIFACTS, botId))?.doc.pending, false);
    });
  });
});
