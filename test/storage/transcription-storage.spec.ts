/**
 * A bot whose team has its own buckets gets its transcripts there: the hosted provider (Gladia's fake)
 * fetches the recording from a link the bucket presigned, and the raw and diarized transcripts are written
 * into the team's artifacts bucket with the service key and linked from it (Ceph radosgw, a real S3 server).
 */
import assert from 'node:assert/strict';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { makeUploader } from '../../bot-runtime/uploaders/make-uploader';
import { GladiaFake } from '../fakes/transcription/gladia-fake';
import { asBot } from '../support/as-bot';
import { customerStorage } from '../support/customer-storage';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { type Radosgw, sharedRadosgw } from '../support/radosgw';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const KEY = 'gladia-key-of-the-team';

describe('transcripts go to the bot’s storage: the team’s own bucket (Ceph radosgw)', function () {
  this.timeout(60_000);
  let gw: Radosgw;
  let t: TestService;
  let gladia: GladiaFake;
  let receiver: WebhookReceiver;
  const launcher = new ScriptedLauncher();

  before(async () => {
    gw = await sharedRadosgw();
    gladia = await new GladiaFake(KEY).start();
    gladia.setScript({ words: [{ word: 'Hello', start: 0.5, end: 0.9, speaker: 0 }], pendingLooks: 1 });
    receiver = await new WebhookReceiver().start();
    t = await startTestService({
      botSlots: 10,
      overrides: {
        launcher,
        webhookDelivery: { pollMs: 20, timeoutMs: 10_000 },
        transcription: {
          urls: { gladia: gladia.url, deepgram: 'http://127.0.0.1:9', assemblyai: 'http://127.0.0.1:9' },
          hosted: { poll: { intervalMs: 50, timeoutMs: 20_000 }, http: { attempts: 2, backoffMs: 20, requestTimeoutMs: 5000 } },
        },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await gladia?.stop();
    await receiver?.stop();
  });

  it('the provider reads the recording from the bucket; both transcripts are written there and linked from it', async () => {
    const api = apiClient(t.url, (await createTeam(t.url)).api_key);
    assert.equal((await api.post('/v2/webhooks', { url: receiver.url })).status, 201);
    const customer = await customerStorage(gw);
    assert.equal((await api.put('/v2/storage-config', customer.body())).status, 200);
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Bucket Bot', transcription_enabled: true, transcription_config: { provider: 'gladia', api_key: KEY } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId: string = created.body.data.bot_id;
    const launch = await launcher.waitForLaunch(botId);
    assert.equal(launch.job.upload.kind, 's3');
    const bot = asBot(launch);
    const start = new Date().toISOString();
    for (const status of ['joining_call', 'in_call_recording']) assert.equal((await bot.report({ kind: 'status', status, at: start })).status, 204);
    const artifacts = new ArtifactStore(makeUploader(launch.job), new HttpReporter({ baseUrl: launch.serviceUrl, token: launch.botToken }, botId), new BotLog(null));
    assert.equal(await artifacts.store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('ID3 stand-in recording')), true);
    const speakers = [{ name: 'Alice', participant_id: 'p-a', start, end: null }];
    assert.equal(await artifacts.store('participants', 'participants.json', 'application/json', Buffer.from(JSON.stringify({ participants: [], speakers }))), true);
    const at = new Date().toISOString();
    await bot.report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 5, waiting_room_seconds: 0, at });
    launch.exit({ code: 0 });

    const completed = (await receiver.waitFor((r) => r.some((x) => x.body.event === 'bot.completed'))).find((x) => x.body.event === 'bot.completed')!.body.data;
    assert.equal(completed.transcription.status, 'completed', JSON.stringify(completed.transcription));
    const fetched = gladia.audioFetches.at(-1)!;
    assert.ok(fetched.ok, `Gladia fetched the recording from the bucket: ${fetched.reason}`);
    for (const [type, key] of [['transcription', 'output_transcription.json'], ['raw_transcription', 'raw_transcription.json']] as const) {
      const stored = JSON.parse(Buffer.concat(await (await customer.serviceClient.getObject(customer.artifactsBucket, `${botId}/${key}`)).toArray()).toString('utf8'));
      assert.equal(stored.bot_id, botId);
      const link = new URL(completed.artifacts.find((a: { artifact_type: string }) => a.artifact_type === type).url);
      assert.equal(link.origin, gw.endpoint, 'presigned by the bucket');
      assert.equal(link.pathname, `/${customer.artifactsBucket}/${botId}/${key}`);
    }
    const diarized = JSON.parse(Buffer.concat(await (await customer.serviceClient.getObject(customer.artifactsBucket, `${botId}/output_transcription.json`)).toArray()).toString('utf8'));
    assert.deepEqual(diarized.result.utterances.map((u: { speaker: string; text: string }) => [u.speaker, u.text]), [['Alice', 'Hello']]);
  });
});
