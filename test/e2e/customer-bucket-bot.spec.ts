import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { customerStorage, type CustomerStorage } from '../support/customer-storage';
import { apiClient, createTeam } from '../support/http-client';
import { sharedRadosgw } from '../support/radosgw';
import { startTestService, type TestService } from '../support/test-service';

const run = promisify(execFile);

describe('a bot through the sandbox writing into a team’s bucket with a put-only key (Chromium, radosgw)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let api: ReturnType<typeof apiClient>;
  let customer: CustomerStorage;
  let work: string;

  before(async () => {
    const gw = await sharedRadosgw();
    customer = await customerStorage(gw);
    sandbox = await startSandbox({ port: 0 });
    t = await startTestService({ botSlots: 1 });
    api = apiClient(t.url, (await createTeam(t.url, { tokens: 50 })).api_key);
    work = mkdtempSync(path.join(os.tmpdir(), 'customer-bucket-bot-'));
  });
  after(async () => {
    await t?.stop();
    await sandbox?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const waitForBot = async (botId: string, done: (bot: any) => boolean, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const bot = (await api.get(`/v2/bots/${botId}`)).body.data;
      if (done(bot)) return bot;
      if (Date.now() > deadline) throw new Error(`bot ${botId} stuck in ${bot.status}: ${JSON.stringify(bot.status_history)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  it('records a speaker; every artifact lands in the right bucket under the bot id, and the service holds none', async () => {
    assert.equal((await api.put('/v2/storage-config', customer.body())).status, 200);
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    const speaker = await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    const created = await api.post('/v2/bots', { meeting_url: meeting.url, bot_name: 'Bucket Bot', recording_mode: 'audio_only' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId: string = created.body.data.bot_id;

    await waitForBot(botId, (b) => b.status === 'in_call_recording');
    await sandbox.client.speak(meeting.meeting_id, speaker.participant_id, 'Recordings stay in our own bucket');
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const ended = await waitForBot(botId, (b) => (b.status === 'completed' || b.status === 'failed') && b.artifacts.some((a: any) => a.artifact_type === 'bot_log'));
    assert.equal(ended.status, 'completed', JSON.stringify(ended));

    const artifacts = ended.artifacts as { artifact_type: string; key: string; status: string; url: string; size_bytes: number }[];
    assert.deepEqual(artifacts.filter((a) => a.status !== 'stored'), [], 'every artifact is stored');
    for (const type of ['recording', 'audio_chunk', 'bot_log', 'chat_messages', 'participants']) {
      assert.ok(artifacts.some((a) => a.artifact_type === type), `a ${type} among ${artifacts.map((a) => a.key).join(', ')}`);
    }
    const inArtifacts = (await customer.serviceClient.listObjectsV2(customer.artifactsBucket, `${botId}/`, true).toArray()).map((o) => o.name).sort();
    const inLogs = (await customer.serviceClient.listObjectsV2(customer.logsBucket, `${botId}/`, true).toArray()).map((o) => o.name);
    assert.deepEqual(inLogs, [`${botId}/bot.log`]);
    assert.deepEqual(inArtifacts, artifacts.filter((a) => a.artifact_type !== 'bot_log').map((a) => `${botId}/${a.key}`).sort());
    for (const a of artifacts) {
      const stat = await customer.serviceClient.statObject(a.artifact_type === 'bot_log' ? customer.logsBucket : customer.artifactsBucket, `${botId}/${a.key}`);
      assert.equal(stat.size, a.size_bytes, a.key);
      assert.equal(new URL(a.url).origin, new URL(customer.body().endpoint as string).origin, `${a.key} is linked at the bucket`);
    }
    assert.equal(existsSync(path.join(t.dataDir, 'artifacts', botId)), false, 'the service holds no copy');

    const recording = artifacts.find((a) => a.artifact_type === 'recording')!;
    const file = path.join(work, path.basename(recording.key));
    writeFileSync(file, Buffer.from(await (await fetch(recording.url)).arrayBuffer()));
    const { stderr } = await run('ffmpeg', ['-hide_banner', '-i', file, '-af', 'volumedetect', '-f', 'null', '-']);
    const maxVolumeDb = Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? -91);
    assert.ok(maxVolumeDb > -30, `the speech is in the recording (max ${maxVolumeDb} dB)`);
  });
});
