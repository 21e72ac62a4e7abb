import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { makeUploader } from '../../bot-runtime/uploaders/make-uploader';
import { asBot } from '../support/as-bot';
import { customerStorage, type CustomerStorage, SERVICE_ACTIONS, INGEST_ACTIONS } from '../support/customer-storage';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { bucketPolicy, type Radosgw, sharedRadosgw } from '../support/radosgw';
import { ScriptedLauncher, type ScriptedLaunch } from '../support/scripted-launcher';
import { startTestService, type TestService } from '../support/test-service';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('retention: a team setting, and a sweep that deletes what expired (Ceph radosgw)', function () {
  this.timeout(60_000);
  let gw: Radosgw;
  let t: TestService;
  let launcher: ScriptedLauncher;
  let nowMs = Date.now();

  before(async () => {
    gw = await sharedRadosgw();
    launcher = new ScriptedLauncher();
    t = await startTestService({ botSlots: 20, clock: () => new Date(nowMs), overrides: { launcher } });
  });
  after(() => t?.stop());

  const admin = () => adminClient(t.url);

  /** the read models show every event written so far (a sweep records events; it does not wait for them) */
  const caughtUp = async () => {
    const all = await t.service.eventStore.readAll({});
    await t.service.projections.waitForPosition(all[all.length - 1]!.position);
  };

  const runBot = async (api: ReturnType<typeof apiClient>) => {
    const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Recorder' });
    const botId: string = created.body.data.bot_id;
    const launch = await launcher.waitForLaunch(botId);
    const artifacts = new ArtifactStore(makeUploader(launch.job), new HttpReporter({ baseUrl: launch.serviceUrl, token: launch.botToken }, botId), new BotLog(null));
    return { botId, launch, artifacts };
  };

  const end = async (launch: ScriptedLaunch) => {
    const at = new Date(nowMs).toISOString();
    const ended = await asBot(launch).report({ kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 60, waiting_room_seconds: 0, at });
    assert.equal(ended.status, 204);
    launch.exit({ code: 0 });
  };

  const statuses = async (api: ReturnType<typeof apiClient>, botId: string) =>
    ((await api.get(`/v2/bots/${botId}`)).body.data.artifacts as { key: string; status: string; url: string | null }[]).map((a) => [a.key, a.status, a.url === null ? 'no link' : 'link']);

  it('is 7 days unless the operator sets it, from 1 day to 10 years; it shows on the team', async () => {
    const team = await createTeam(t.url);
    assert.equal((await admin().get(`/admin/teams/${team.team_id}`)).body.data.retention_days, 7);
    const set = await admin().put(`/admin/teams/${team.team_id}/retention`, { retention_days: 30 });
    assert.equal(set.status, 200);
    assert.equal(set.body.data.retention_days, 30);
    for (const [body, details] of [
      [{ retention_days: 0 }, 'body/retention_days must be an integer from 1 to 3650'],
      [{ retention_days: 3651 }, 'body/retention_days must be an integer from 1 to 3650'],
      [{ retention_days: '30' }, 'body/retention_days must be an integer from 1 to 3650'],
      [{}, 'body/retention_days is required'],
      [{ retention_days: 5, days: 5 }, 'body/days is not a known field'],
    ] as const) {
      const refused = await admin().put(`/admin/teams/${team.team_id}/retention`, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.details, details);
    }
    assert.equal((await admin().put('/admin/teams/00000000-0000-4000-8000-000000000000/retention', { retention_days: 3 })).status, 404);
  });

  it('deletes a bot’s artifacts once its retention has passed, in the team’s bucket and in the service’s store, and says they expired', async () => {
    const team = await createTeam(t.url);
    const api = apiClient(t.url, team.api_key);
    await admin().put(`/admin/teams/${team.team_id}/retention`, { retention_days: 2 });
    const customer = await customerStorage(gw);
    assert.equal((await api.put('/v2/storage-config', customer.body())).status, 200);
    const inBucket = await runBot(api);
    await inBucket.artifacts.store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('audio'));
    await inBucket.artifacts.store('bot_log', 'bot.log', 'text/plain', Buffer.from('log'));
    await end(inBucket.launch);

    assert.equal((await api.delete('/v2/storage-config')).status, 200);
    const inService = await runBot(api);
    await inService.artifacts.store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('audio'));
    await end(inService.launch);
    const serviceFile = path.join(t.dataDir, 'artifacts', inService.botId, 'recording.mp3');
    assert.equal(existsSync(serviceFile), true);

    nowMs += 2 * DAY_MS - 60_000;
    await t.service.retention.runNow();
    assert.deepEqual(await statuses(api, inBucket.botId), [['recording.mp3', 'stored', 'link'], ['bot.log', 'stored', 'link']], 'not yet');

    nowMs += 2 * 60_000;
    await t.service.retention.runNow();
    await caughtUp();
    assert.deepEqual(await statuses(api, inBucket.botId), [['recording.mp3', 'expired', 'no link'], ['bot.log', 'expired', 'no link']]);
    assert.deepEqual(await statuses(api, inService.botId), [['recording.mp3', 'expired', 'no link']]);
    await assert.rejects(customer.serviceClient.statObject(customer.artifactsBucket, `${inBucket.botId}/recording.mp3`), { code: 'NotFound' });
    await assert.rejects(customer.serviceClient.statObject(customer.logsBucket, `${inBucket.botId}/bot.log`), { code: 'NotFound' });
    assert.equal(existsSync(serviceFile), false);
    const events = (await api.get(`/v2/bots/${inBucket.botId}/events`)).body.data.events as { type: string; data: { keys?: string[] } }[];
    assert.deepEqual(events.filter((e) => e.type === 'ArtifactsExpired').map((e) => e.data.keys), [['recording.mp3', 'bot.log']]);
  });

  it('a deletion the bucket refuses leaves the artifact listed, and is tried again at the next sweep', async () => {
    const team = await createTeam(t.url);
    const api = apiClient(t.url, team.api_key);
    await admin().put(`/admin/teams/${team.team_id}/retention`, { retention_days: 1 });
    const customer: CustomerStorage = await customerStorage(gw);
    await api.put('/v2/storage-config', customer.body());
    const bot = await runBot(api);
    await bot.artifacts.store('recording', 'recording.mp3', 'audio/mpeg', Buffer.from('audio'));
    await end(bot.launch);
    const policy = (serviceActions: readonly string[]) =>
      bucketPolicy(customer.artifactsBucket, [
        { keys: customer.ingest, allow: INGEST_ACTIONS },
        { keys: customer.service, allow: serviceActions },
      ]);
    await customer.serviceClient.setBucketPolicy(customer.artifactsBucket, policy(SERVICE_ACTIONS.filter((a) => a !== 's3:DeleteObject')));

    nowMs += 2 * DAY_MS;
    await t.service.retention.runNow();
    assert.deepEqual(await statuses(api, bot.botId), [['recording.mp3', 'stored', 'link']]);

    await customer.serviceClient.setBucketPolicy(customer.artifactsBucket, policy(SERVICE_ACTIONS));
    await t.service.retention.runNow();
    await caughtUp();
    assert.deepEqual(await statuses(api, bot.botId), [['recording.mp3', 'expired', 'no link']]);
  });
});
