import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { makeUploader } from '../../bot-runtime/uploaders/make-uploader';
import { asBot } from '../support/as-bot';
import { customerStorage } from '../support/customer-storage';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { type Radosgw, sharedRadosgw } from '../support/radosgw';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const DAY_MS = 24 * 60 * 60 * 1000;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const download = async (url: string) => {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return Buffer.from(await response.arrayBuffer());
};

describe('legacy bots keep their artifacts where the team’s v2 bots do: its own buckets, its retention (Ceph radosgw)', function () {
  this.timeout(60_000);
  let gw: Radosgw;
  let t: TestService;
  let launcher: ScriptedLauncher;
  let receiver: WebhookReceiver;
  /** the service's clock: real time (the bucket checks presigned links against it), moved ahead for retention */
  let offsetMs = 0;

  before(async () => {
    gw = await sharedRadosgw();
    launcher = new ScriptedLauncher();
    receiver = await new WebhookReceiver().start();
    t = await startTestService({
      botSlots: 10,
      clock: () => new Date(Date.now() + offsetMs),
      overrides: { launcher, webhookDelivery: { pollMs: 20, timeoutMs: 10_000 } },
    });
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  /** A legacy bot that records `recording` through the bot runtime's own uploader, then ends. */
  const recordLegacyBot = async (api: ReturnType<typeof apiClient>, recording: Buffer) => {
    const created = await api.post('/bots', { meeting_url: MEETING, bot_name: 'Legacy Recorder', webhook_url: receiver.url });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const botId: string = created.body.bot_id;
    const launch = await launcher.waitForLaunch(botId);
    const artifacts = new ArtifactStore(makeUploader(launch.job), new HttpReporter({ baseUrl: launch.serviceUrl, token: launch.botToken }, botId), new BotLog(null));
    assert.equal(await artifacts.store('recording', 'recording.mp4', 'video/mp4', recording), true);
    const at = new Date(Date.now() + offsetMs).toISOString();
    const ended = await asBot(launch).report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 30, waiting_room_seconds: 0, at });
    assert.equal(ended.status, 204);
    launch.exit({ code: 0 });
    return { botId, launch };
  };
  const meetingData = async (api: ReturnType<typeof apiClient>, botId: string) => {
    const response = await api.get(`/bots/meeting_data?bot_id=${botId}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };

  it('a legacy bot of a team with its own buckets writes there; meeting_data and the complete event link the recording presigned by the bucket', async () => {
    const api = apiClient(t.url, (await createTeam(t.url)).api_key);
    const customer = await customerStorage(gw);
    assert.equal((await api.put('/v2/storage-config', customer.body())).status, 200);
    const recording = randomBytes(200_000);
    const { botId, launch } = await recordLegacyBot(api, recording);
    assert.equal(launch.job.upload.kind, 's3', 'the bot gets the team’s bucket, as a v2 bot would');
    assert.equal(sha256(Buffer.concat(await (await customer.serviceClient.getObject(customer.artifactsBucket, `${botId}/recording.mp4`)).toArray())), sha256(recording));

    const data = await meetingData(api, botId);
    const mp4 = new URL(data.mp4);
    assert.equal(mp4.origin, gw.endpoint);
    assert.equal(mp4.pathname, `/${customer.artifactsBucket}/${botId}/recording.mp4`);
    assert.equal(mp4.searchParams.get('X-Amz-Expires'), '7200', 'valid for 2 hours');
    assert.equal(sha256(await download(data.mp4)), sha256(recording));
    assert.equal(data.audio, '', 'a video recording');
    assert.equal(data.bot_data.bot.mp4_s3_path, 'recording.mp4');

    const isComplete = (x: { body: any }) => x.body.event === 'complete' && x.body.data.bot_id === botId;
    const final = (await receiver.waitFor((r) => r.some(isComplete))).find(isComplete)!;
    assert.equal(new URL(final.body.data.mp4).origin, gw.endpoint);
    assert.equal(sha256(await download(final.body.data.mp4)), sha256(recording));
  });

  it('once the team’s retention has passed, meeting_data links nothing it deleted; the recording’s path stays', async () => {
    const team = await createTeam(t.url);
    const api = apiClient(t.url, team.api_key);
    assert.equal((await adminClient(t.url).put(`/admin/teams/${team.team_id}/retention`, { retention_days: 1 })).status, 200);
    const recording = Buffer.from('pretend mp4 bytes');
    const { botId } = await recordLegacyBot(api, recording);
    const before = await meetingData(api, botId);
    assert.deepEqual(await download(before.mp4), recording, 'in the service’s own store until it expires');

    offsetMs += DAY_MS + 60_000;
    await t.service.retention.runNow();
    const all = await t.service.eventStore.readAll({});
    await t.service.projections.waitForPosition(all[all.length - 1]!.position);
    const after = await meetingData(api, botId);
    assert.deepEqual([after.mp4, after.audio], ['', '']);
    assert.equal(after.bot_data.bot.mp4_s3_path, 'recording.mp4');
    assert.equal(after.duration, 30);
  });
});
