import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type * as Minio from 'minio';
import { customerStorage, INGEST_ACTIONS, SERVICE_ACTIONS, type CustomerStorage } from '../support/customer-storage';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { bucketName, bucketPolicy, type Radosgw, sharedRadosgw } from '../support/radosgw';
import { readUntil } from '../support/read-until';
import { runScriptedMeeting, type ScriptedMeeting } from '../support/scripted-bot-run';
import { ScriptedLauncher } from '../support/scripted-launcher';
import { startTestService, testServiceSecret, type TestService } from '../support/test-service';
import { WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

const MEETING = 'https://meet.google.com/qrs-tuvw-xyz';
const MEETING_OF_ZOE: ScriptedMeeting = {
  participants: ['Zoë Lefèvre', 'Karim Haddad'],
  speakers: ['Zoë Lefèvre', 'Karim Haddad'],
  chat: [{ sender_name: 'Karim Haddad', text: 'My address is 12 rue des Lilas' }],
  recordedSeconds: 30,
};
const PERSONAL = ['Zoë', 'Zo\\u00eb', 'Karim', 'qrs-tuvw-xyz', 'rue des Lilas', 'zoe@example.com', 'Welcome Zoe'];

/**
 * A bot's data deleted with real buckets (Ceph radosgw): the service's own bucket (OBJECT_STORE_URL) and a
 * team's own buckets (its storage configuration, reached with its service key), the bots writing there
 * with the bot runtime's own uploader. Afterwards no object of the bot is in any bucket, and nothing read
 * through the API, an export of the log or a rebuild of the read models shows its personal data.
 */
describe("deleting a bot's data erases it from the service's bucket and the team's own (Ceph radosgw)", function () {
  this.timeout(120_000);
  let gw: Radosgw;
  let t: TestService;
  let launcher: ScriptedLauncher;
  let receiver: WebhookReceiver;
  let serviceBucket: string;
  let serviceClient: Minio.Client;

  before(async () => {
    gw = await sharedRadosgw();
    const keys = await gw.createUser('service');
    serviceClient = gw.client(keys);
    serviceBucket = bucketName('service');
    await serviceClient.makeBucket(serviceBucket);
    launcher = new ScriptedLauncher();
    receiver = await new WebhookReceiver().start();
    t = await startTestService({
      botSlots: 10,
      objectStoreUrl: `s3+http://${encodeURIComponent(keys.accessKey)}:${encodeURIComponent(keys.secretKey)}@${gw.host}:${gw.port}/${serviceBucket}?force_path_style=true`,
      overrides: { launcher, webhookDelivery: { pollMs: 20, timeoutMs: 10_000 }, dataErasureWaitMs: 2_000 },
    });
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  const objectsOf = async (client: Minio.Client, bucket: string, botId: string): Promise<string[]> => {
    const keys: string[] = [];
    for await (const item of client.listObjectsV2(bucket, `${botId}/`, true)) keys.push(item.name!);
    return keys;
  };
  const teamWith = async (storage: CustomerStorage | null) => {
    const team = await createTeam(t.url, { tokens: 50 });
    const api = apiClient(t.url, team.api_key);
    if (storage) assert.equal((await api.put('/v2/storage-config', storage.body())).status, 200);
    const endpoint = await api.post('/v2/webhooks', { url: receiver.url });
    return { ...team, api, endpointId: endpoint.body.data.webhook_id as string };
  };
  const zoeBot = async (api: ReturnType<typeof apiClient>) => {
    const created = await api.post('/v2/bots', {
      meeting_url: MEETING, bot_name: 'Zoë Lefèvre (assistant)', entry_message: 'Welcome Zoe', extra: { owner: 'zoe@example.com' }, ignored_participant_names: ['Karim Haddad'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const botId: string = created.body.data.bot_id;
    await runScriptedMeeting(await launcher.waitForLaunch(botId), MEETING_OF_ZOE);
    await readUntil(async () => (await api.get(`/v2/bots/${botId}`)).body.data, (b) => b.status === 'completed' && b.artifacts.length === 7);
    return botId;
  };
  const admin = async (...args: string[]) =>
    (
      await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/admin-cli.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: t.dataDir, EVENTSTORE_URL: '', MONGO_URL: '', SERVICE_SECRET: testServiceSecret(t.dataDir), SERVICE_SECRET_FILE: '' },
        maxBuffer: 64 * 1024 * 1024,
      })
    ).stdout;
  const shownBy = async (api: ReturnType<typeof apiClient>, botId: string, endpointId: string) =>
    JSON.stringify(
      await Promise.all(
        [`/v2/bots/${botId}`, `/v2/bots/${botId}/events`, `/bots/meeting_data?bot_id=${botId}`, '/bots/bots_with_metadata', '/v2/bots', `/v2/webhooks/${endpointId}/deliveries`].map(
          async (p) => (await api.get(p)).body,
        ),
      ),
    );
  const assertNothingPersonal = (text: string, where: string) => {
    for (const value of PERSONAL) assert.ok(!text.includes(value), `"${value}" is not in ${where}`);
  };

  it("a bot of the team's own buckets and a bot of the service's bucket: nothing left anywhere, the log readable, the rest intact", async () => {
    const customer = await customerStorage(gw);
    const own = await teamWith(customer);
    const serviced = await teamWith(null);
    const ownBot = await zoeBot(own.api);
    const servicedBot = await zoeBot(serviced.api);
    assert.ok((await objectsOf(customer.serviceClient, customer.artifactsBucket, ownBot)).length >= 5, "the team's bucket holds the bot's recording, screenshots, chunks, chat, participants");
    assert.deepEqual(await objectsOf(customer.serviceClient, customer.logsBucket, ownBot), [`${ownBot}/bot.log`]);
    assert.equal((await objectsOf(serviceClient, serviceBucket, servicedBot)).length, 7, "the service's bucket holds the other bot's");
    const exportedBefore = await admin('export-events');
    assert.ok(exportedBefore.includes('"bot_id":"' + ownBot) && exportedBefore.includes('Karim Haddad'), 'the export reads the log, personal fields opened');
    const ledgersBefore = await Promise.all([own, serviced].map(async (team) => (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data));
    const deliveriesBefore = (await own.api.get(`/v2/webhooks/${own.endpointId}/deliveries?limit=100`)).body.data.deliveries;

    for (const [team, botId] of [[own, ownBot], [serviced, servicedBot]] as const) {
      const deleted = await team.api.delete(`/v2/bots/${botId}/delete-data`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal(deleted.body.data.artifacts_deleted, true);
    }

    for (const bucket of [customer.artifactsBucket, customer.logsBucket]) assert.deepEqual(await objectsOf(customer.serviceClient, bucket, ownBot), [], `nothing of the bot in ${bucket}`);
    for (const botId of [ownBot, servicedBot]) assert.deepEqual(await objectsOf(serviceClient, serviceBucket, botId), [], "nothing of either bot in the service's bucket");

    assertNothingPersonal(await shownBy(own.api, ownBot, own.endpointId), 'the API');
    assertNothingPersonal(await shownBy(serviced.api, servicedBot, serviced.endpointId), 'the API');
    const exported = await admin('export-events');
    assert.ok(exported.includes('"type":"BotDataDeleted"'));
    assertNothingPersonal(exported, 'an export of the log');
    const rebuilt = JSON.parse(await admin('rebuild-projections'));
    assert.equal(rebuilt.events_applied, rebuilt.events_read, 'a rebuild of the read models still succeeds');
    assert.equal((await adminClient(t.url).post('/admin/rebuild-projections')).status, 200);
    assertNothingPersonal(await shownBy(own.api, ownBot, own.endpointId), 'the rebuilt read models');

    const ledgersAfter = await Promise.all([own, serviced].map(async (team) => (await adminClient(t.url).get(`/admin/teams/${team.team_id}`)).body.data));
    assert.deepEqual(
      ledgersAfter.map((l) => [l.balance, l.reserved]),
      ledgersBefore.map((l) => [l.balance, l.reserved]),
      'the charges stay',
    );
    assert.deepEqual((await own.api.get(`/v2/webhooks/${own.endpointId}/deliveries?limit=100`)).body.data.deliveries, deliveriesBefore, 'the delivery log stays');
    const audit = (await own.api.get(`/v2/bots/${ownBot}/events`)).body.data.events.map((e: { type: string }) => e.type);
    for (const type of ['BotCreated', 'StatusChanged', 'ArtifactStored', 'ParticipantsReported', 'BotCompleted', 'BotDataDeleted', 'BotArtifactsErased']) assert.ok(audit.includes(type), `the audit keeps ${type}`);
  });

  it("a bucket that refuses the erasure: the answer says partiallyDeleted, the personal data is unreadable already; once it accepts, the sweep erases the rest", async () => {
    const customer = await customerStorage(gw);
    const team = await teamWith(customer);
    const botId = await zoeBot(team.api);
    const allowing = (serviceActions: readonly string[]) =>
      bucketPolicy(customer.artifactsBucket, [
        { keys: customer.ingest, allow: INGEST_ACTIONS },
        { keys: customer.service, allow: serviceActions },
      ]);
    await customer.serviceClient.setBucketPolicy(customer.artifactsBucket, allowing(SERVICE_ACTIONS.filter((a) => a !== 's3:DeleteObject')));

    const deleted = await team.api.delete(`/v2/bots/${botId}/delete-data`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.data.status, 'partiallyDeleted');
    assert.equal(deleted.body.data.artifacts_deleted, false);
    assertNothingPersonal(await shownBy(team.api, botId, team.endpointId), 'the API');
    assert.ok((await objectsOf(customer.serviceClient, customer.artifactsBucket, botId)).length > 0, 'the bucket still holds them');
    const config = (await team.api.get('/v2/storage-config')).body.data;
    assert.match(config.last_error_message, /could not erase a deleted bot's artifacts/, 'the team is told why');

    await customer.serviceClient.setBucketPolicy(customer.artifactsBucket, allowing(SERVICE_ACTIONS));
    await t.service.dataErasure.runNow();
    await readUntil(async () => (await team.api.get(`/v2/bots/${botId}`)).body.data, (bot) => bot.artifacts_deleted === true);
    for (const bucket of [customer.artifactsBucket, customer.logsBucket]) assert.deepEqual(await objectsOf(customer.serviceClient, bucket, botId), [], `nothing of the bot in ${bucket}`);
    assert.deepEqual((await team.api.post(`/bots/${botId}/delete_data`)).body, { ok: true, status: 'alreadyDeleted' });
  });
});
