import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { PostgresCheckpointStore } from '../../src/adapters/checkpoint-store/postgres-checkpoint-store';
import { openKeyVault } from '../../src/adapters/key-vault';
import { CredentialSealer, KeyDestroyedError } from '../../src/adapters/key-vault/credential-sealer';
import { vcCredentialStreamName } from '../../src/domain/vc-credentials/vc-credential-events';
import { configFromEnv } from '../../src/config';
import { startService } from '../../src/service';
import { asBot, runToken, takeBotToRun } from '../support/as-bot';
import { sharedFerretdb } from '../support/ferretdb';
import { internalPaths, vcJoinPath } from '../../contract/bot-contract';
import { apiClient, createTeam, MEETING, request } from '../support/http-client';
import { freshPostgresDatabase } from '../support/postgres';
import { freePort, ServiceProcess } from '../support/service-process';
import { startTestService, type TestService } from '../support/test-service';
import { eventually } from '../support/eventually';
import { stateCacheFor } from '../../src/commands/stream-state-cache';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Who holds a lease now, read from the PostgreSQL the instances share. */
const holderOf = async (databaseUrl: string, lease: string): Promise<string | null> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ owner: string }>('SELECT owner FROM leases WHERE name = $1 AND owner IS NOT NULL AND expires_at > now()', [lease]);
    return rows[0]?.owner ?? null;
  } finally {
    await client.end();
  }
};

describe('many instances on shared stores', function () {
  this.timeout(90_000);

  describe('two api instances on one PostgreSQL (in this process)', () => {
    let databaseUrl: string;
    let a: TestService;
    let b: TestService;
    let workerLease: PostgresCheckpointStore;
    const secret = randomBytes(32).toString('hex');
    const fixedNow = Date.UTC(2026, 10, 27, 12);
    before(async () => {
      databaseUrl = await freshPostgresDatabase('many_instances');
      a = await startTestService({ databaseUrl, serviceSecret: secret, instanceId: 'api-a' });
      b = await startTestService({ databaseUrl, serviceSecret: secret, instanceId: 'api-b' });
      // The worker the test plays is alive: it holds its heartbeat lease.
      workerLease = await PostgresCheckpointStore.connect(databaseUrl);
      assert.ok(await workerLease.acquireLease('worker-worker-x', 'worker-x/test', 120_000));
    });
    after(async () => {
      await workerLease?.close();
      await b?.stop();
      await a?.stop();
    });

    it('each single-owner part runs in one of them: the first holds the leases, the second stands by', () => {
      const held = a.service.parts.heldLeases();
      for (const lease of ['webhook-delivery', 'webhook-queue', 'scheduler', 'settlement', 'calendar-sync', 'transcriber', 'vanished-workers', 'login-sessions', 'data-erasure']) {
        assert.ok(held.includes(lease), `${lease} in ${held.join(', ')}`);
      }
      assert.deepEqual(b.service.parts.heldLeases(), []);
    });

    it('chat and leave asked on one instance reach a bot that polls the other, and the bot\'s answers come back', async () => {
      const team = await createTeam(a.url, { tokens: 10 });
      const onA = apiClient(a.url, team.api_key);
      const onB = apiClient(b.url, team.api_key);
      const botId = (await onA.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Everywhere' })).body.data.bot_id as string;
      const { runId } = await takeBotToRun(a, botId, 'worker-x');
      const bot = asBot({ job: { bot_id: botId }, serviceUrl: b.url, botToken: runToken(a, botId, runId) });
      await bot.status('joining_call');
      await bot.status('in_call_recording');

      const polled = bot.poll(20);
      const chat = onA.post(`/v2/bots/${botId}/send-chat-message`, { message: 'Hello from A' });
      const requests = (await polled).body.requests as { id: string; kind: string; message?: string }[];
      assert.deepEqual(requests.map((r) => [r.kind, r.message]), [['chat', 'Hello from A']], 'B handed over what A recorded');
      assert.equal((await bot.answer({ id: requests[0]!.id, ok: true })).status, 204);
      const sent = await chat;
      assert.equal(sent.status, 200, JSON.stringify(sent.body));

      const polledAgain = bot.poll(20);
      const refused = onB.post(`/v2/bots/${botId}/send-chat-message`, { message: 'and from B' });
      const second = (await polledAgain).body.requests as { id: string }[];
      await bot.answer({ id: second[0]!.id, ok: false, reason: 'chat_disabled', message: 'chat is off here' });
      assert.equal((await refused).status, 422, 'the bot said chat is disabled: the spec\'s 422');

      // The bot's poll moves to A; the leave is asked on B.
      const botOnA = asBot({ job: { bot_id: botId }, serviceUrl: a.url, botToken: runToken(a, botId, runId) });
      const leavePoll = botOnA.poll(20);
      const leave = onB.post(`/v2/bots/${botId}/leave`);
      const leaveRequests = (await leavePoll).body.requests as { id: string; kind: string }[];
      assert.deepEqual(leaveRequests.map((r) => r.kind), ['leave']);
      await botOnA.answer({ id: leaveRequests[0]!.id, ok: true });
      const left = await leave;
      assert.equal(left.status, 200);
      assert.equal(left.body.data.message, 'The bot is leaving the meeting', 'B saw the acknowledgement the bot gave A');
    });

    it('a POST on one instance is readable at once through the other', async () => {
      const team = await createTeam(a.url);
      const created = await apiClient(a.url, team.api_key).post('/v2/bots', { meeting_url: MEETING, bot_name: 'Read on B' });
      assert.equal(created.status, 201);
      // B projects the shared log on its own: a read waits for B's read models to reach the log.
      const read = await apiClient(b.url, team.api_key).get(`/v2/bots/${created.body.data.bot_id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.data.bot_name, 'Read on B');
    });

    it('a vc credential stored through one instance signs a join through the other, and deleting it through either destroys its one key', async () => {
      const team = await createTeam(a.url, { tokens: 10 });
      const onA = apiClient(a.url, team.api_key);
      const onB = apiClient(b.url, team.api_key);
      const stored = await onA.post('/v2/vc-credentials', { type: 'sdk', sdk_id: 'acme-sdk-key', sdk_secret: 'acme-sdk-secret-0001' });
      assert.equal(stored.status, 201, JSON.stringify(stored.body));
      const botId = (await onB.post('/v2/bots', { meeting_url: 'https://zoom.us/j/1234567890?pwd=abc', bot_name: 'Signed' })).body.data.bot_id as string;
      const { runId } = await takeBotToRun(b, botId, 'worker-x');
      const askVcJoin = (t: TestService) => request(t.url, 'POST', vcJoinPath(botId), { headers: { authorization: `Bearer ${runToken(t, botId, runId)}` } });

      const onInstanceB = await askVcJoin(b);
      assert.equal(onInstanceB.status, 200, JSON.stringify(onInstanceB.body));
      const [head, claims, mac] = (onInstanceB.body.sdk.signature as string).split('.');
      assert.equal(onInstanceB.body.sdk.sdk_key, 'acme-sdk-key');
      assert.equal(createHmac('sha256', 'acme-sdk-secret-0001').update(`${head}.${claims}`).digest('base64url'), mac, 'B opened the secret A sealed');

      const credentialId = stored.body.data.credential_id as string;
      const [storedEvent] = await a.service.eventStore.readStream(vcCredentialStreamName(credentialId));
      const { key_id: keyId, sdk_secret: sealedSecret } = storedEvent!.data as { key_id: string; sdk_secret: { sealed: string } };
      assert.equal((await onB.delete(`/v2/vc-credentials/${credentialId}`)).status, 200);
      // What every instance opens its keys from: the key A made is gone, so its sealed secret is lost for good.
      const vault = await openKeyVault({ databaseUrl, mongoDatabase: 'unused', dataDir: a.dataDir }, a.secretBox);
      try {
        assert.equal((await vault.lookup(keyId)).state, 'destroyed', 'the key was destroyed where A keeps it too');
        assert.equal(await vault.keyToSeal(keyId), null, 'and never made again');
        await assert.rejects(new CredentialSealer(vault).open(keyId, sealedSecret), KeyDestroyedError);
      } finally {
        await vault.close();
      }
      const afterDelete = await askVcJoin(a);
      assert.equal(afterDelete.status, 200, JSON.stringify(afterDelete.body));
      assert.equal(afterDelete.body.sdk, null, 'nothing left to sign with');
    });

    it('a tm login stored through one instance hands its password to its bot through the other, and deleting it through the other destroys its one key', async () => {
      const team = await createTeam(a.url, { tokens: 10 });
      const onA = apiClient(a.url, team.api_key);
      const onB = apiClient(b.url, team.api_key);
      const workspace = (await onA.post('/v2/tm-workspaces', { domain: 'contoso.com' })).body.data.workspace_id as string;
      const login = await onA.post('/v2/tm-logins', { workspace_id: workspace, email: 'bot@contoso.com', name: 'Bot', password: 'sealed-on-A-1!', email_group: 'bots@contoso.com' });
      assert.equal(login.status, 201, JSON.stringify(login.body));
      const meeting = 'https://tm.localhost:8443/l/meetup-join/room-1';
      const botId = (await onB.post('/v2/bots', { meeting_url: meeting, bot_name: 'Signed', tm_config: { email_group: 'bots@contoso.com' } })).body.data.bot_id as string;
      const { runId } = await takeBotToRun(b, botId, 'worker-x');
      const signIn = await request(b.url, 'POST', internalPaths.signIn(botId), { headers: { authorization: `Bearer ${runToken(b, botId, runId)}` } });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      assert.equal(signIn.body.password, 'sealed-on-A-1!', 'B opened the password A sealed');

      const credentialId = login.body.data.credential_id as string;
      const [created] = await a.service.eventStore.readStream(`tm-login-${credentialId}`);
      const sealed = created!.data.password as { sealed: string };
      const deleted = await onB.delete(`/v2/tm-logins/${credentialId}`);
      assert.equal(deleted.status, 202, 'in use: it goes once its session ends');
      // Its key went at once, where A keeps it too: the password in the log is lost for good.
      const vault = await openKeyVault({ databaseUrl, mongoDatabase: 'unused', dataDir: a.dataDir }, a.secretBox);
      try {
        await assert.rejects(new CredentialSealer(vault).open(`tm-login-${credentialId}`, sealed), KeyDestroyedError);
      } finally {
        await vault.close();
      }
    });

    it("a bot's data deleted through the instance without the lease data-erasure: the holder erases it, the request answers deleted, and every instance forgets what it folded of the bot", async () => {
      assert.throws(() => b.service.dataErasure, /another process holds the lease data-erasure/);
      const team = await createTeam(a.url, { tokens: 10 });
      const onA = apiClient(a.url, team.api_key);
      const onB = apiClient(b.url, team.api_key);
      const botId = (await onA.post('/v2/bots', { meeting_url: MEETING, bot_name: "Alice Martin's notetaker" })).body.data.bot_id as string;
      const { bot } = await takeBotToRun(a, botId, 'worker-x');
      await bot.status('joining_call');
      await bot.status('in_call_recording');
      const polled = bot.poll(20);
      const chat = onA.post(`/v2/bots/${botId}/send-chat-message`, { message: 'Alice Martin joins at 10' });
      const [request] = (await polled).body.requests as { id: string }[];
      await bot.answer({ id: request!.id, ok: true });
      assert.equal((await chat).status, 200);
      const end = { kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 60, waiting_room_seconds: 0, at: new Date().toISOString() };
      assert.equal((await bot.report(end)).status, 204);
      const foldedOnA = () => JSON.stringify(stateCacheFor(a.service.eventStore).get(botStreamName(botId))?.state ?? null);
      assert.ok(foldedOnA().includes('Alice Martin joins at 10'), "A folded the bot as it ran (the team's chat message in it)");

      const deleted = await onB.delete(`/v2/bots/${botId}/delete-data`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.deepEqual([deleted.body.data.status, deleted.body.data.artifacts_deleted], ['deleted', true], 'B saw the erasure A recorded');
      await eventually(async () => foldedOnA(), (folded) => !folded.includes('Alice'));
      for (const on of [onA, onB]) assert.equal((await on.get(`/v2/bots/${botId}`)).body.data.bot_name, '[deleted]');
    });

    it('the rate limit of a team holds across instances (one shared count per window)', async () => {
      const clock = () => new Date(fixedNow);
      const c = await startTestService({ databaseUrl, serviceSecret: secret, instanceId: 'api-c', clock });
      const d = await startTestService({ databaseUrl, serviceSecret: secret, instanceId: 'api-d', clock });
      try {
        const team = await createTeam(c.url, { tokens: 100, rate_limit_per_second: 2 });
        const onC = apiClient(c.url, team.api_key);
        const onD = apiClient(d.url, team.api_key);
        const bot = { meeting_url: MEETING, bot_name: 'Limited' };
        const statuses = [(await onC.post('/v2/bots', bot)).status, (await onD.post('/v2/bots', bot)).status, (await onC.post('/v2/bots', bot)).status, (await onD.post('/v2/bots', bot)).status];
        assert.deepEqual(statuses, [201, 201, 429, 429], 'two a second for the team, wherever its requests land');
      } finally {
        await d.stop();
        await c.stop();
      }
    });
  });

  describe('read models in MongoDB (FerretDB): one leased projector, every instance waits for its checkpoint', () => {
    it('only one instance projects, and a POST on either is readable at once through the other', async () => {
      const databaseUrl = await freshPostgresDatabase('many_mongo');
      const ferretdb = await sharedFerretdb();
      const mongo = { url: ferretdb.url, database: ferretdb.databaseName('many_instances') };
      const secret = randomBytes(32).toString('hex');
      const a = await startTestService({ databaseUrl, mongo, serviceSecret: secret, instanceId: 'api-a' });
      const b = await startTestService({ databaseUrl, mongo, serviceSecret: secret, instanceId: 'api-b' });
      try {
        assert.ok(a.service.parts.heldLeases().includes('projector'));
        assert.ok(!b.service.parts.heldLeases().includes('projector'), 'the second instance does not project');
        const team = await createTeam(a.url);
        for (const [write, read] of [[a, b], [b, a]] as const) {
          const created = await apiClient(write.url, team.api_key).post('/v2/bots', { meeting_url: MEETING, bot_name: 'Shared' });
          assert.equal(created.status, 201);
          const got = await apiClient(read.url, team.api_key).get(`/v2/bots/${created.body.data.bot_id}`);
          assert.equal(got.status, 200, 'read your write through the other instance');
        }
      } finally {
        await b.stop();
        await a.stop();
        const client = new MongoClient(mongo.url);
        await client.db(mongo.database).dropDatabase().finally(() => client.close());
      }
    });
  });

  describe('a webhook attempt cut short by the death of its sender (two service processes, SIGKILL)', () => {
    const dirs: string[] = [];
    const processes: ServiceProcess[] = [];
    let receiver: WebhookReceiver | null = null;
    after(async () => {
      for (const p of processes) await p.kill();
      await receiver?.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('is sent again by the instance that takes the lease over, with the same webhook-id, once', async () => {
      const databaseUrl = await freshPostgresDatabase('webhook_takeover');
      const secret = randomBytes(32).toString('hex');
      const instance = async (id: string) => {
        const dir = mkdtempSync(path.join(os.tmpdir(), `mbs-${id}-`));
        dirs.push(dir);
        const p = new ServiceProcess(await freePort(), {
          DATA_DIR: dir, DATABASE_URL: databaseUrl, SERVICE_SECRET: secret, INSTANCE_ID: id, BOT_SLOTS: '0', LEASE_TTL_SECONDS: '1', ALLOW_PRIVATE_WEBHOOK_TARGETS: '1',
        });
        processes.push(p);
        await p.start();
        return p;
      };
      const a = await instance('api-a');
      const b = await instance('api-b');
      receiver = await new WebhookReceiver((index) => (index === 0 ? 'hang' : 200)).start();
      const team = await createTeam(b.url);
      const onB = apiClient(b.url, team.api_key);
      assert.equal((await onB.post('/v2/webhooks', { url: receiver.url, events: ['bot.failed'] })).status, 201);
      const botId = (await onB.post('/v2/bots', { meeting_url: MEETING, bot_name: 'Cut short' })).body.data.bot_id;
      assert.equal((await onB.post(`/v2/bots/${botId}/leave`)).status, 200);

      await receiver.waitFor((r) => r.length === 1);
      assert.match((await holderOf(databaseUrl, 'webhook-delivery')) ?? '', /^api-a\//, 'the first instance sends, and its attempt hangs');
      await a.kill();
      const killedAt = Date.now();
      const [first, second] = await receiver.waitFor((r) => r.length === 2);
      assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id'], 'the same message, the same webhook-id');
      assert.match((await holderOf(databaseUrl, 'webhook-delivery')) ?? '', /^api-b\//);
      const log = await apiClient(b.url, team.api_key).get(`/v2/bots/${botId}/events`);
      assert.equal(log.status, 200);
      // Sent again only once its claim (the attempt's 15 s timeout and a second) had expired: never two at once.
      assert.ok(Date.now() - killedAt < 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(receiver.received.length, 2, 'no third copy');
    });
  });

  describe('bad configuration fails loudly at start', () => {
    it('a worker that cannot reach the API (PUBLIC_URL) does not start, and says so', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'mbs-worker-'));
      try {
        const publicUrl = `http://127.0.0.1:${await freePort()}`;
        const config = configFromEnv({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ROLE: 'worker', BOT_SLOTS: '1', PUBLIC_URL: publicUrl, LOG_LEVEL: 'fatal', SERVICE_SECRET: randomBytes(32).toString('hex') });
        await assert.rejects(startService(config), new RegExp(`ROLE=worker cannot reach the API at ${publicUrl}/health \\(PUBLIC_URL\\)`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('roles that cannot work are refused by name', () => {
      assert.throws(() => configFromEnv({ ROLE: 'worker' }), /ROLE=worker needs PUBLIC_URL/);
      assert.throws(() => configFromEnv({ ROLE: 'api', BOT_SLOTS: '2' }), /ROLE=api runs no bots, but BOT_SLOTS is 2/);
      assert.throws(() => configFromEnv({ ROLE: 'workers' }), /ROLE must be api, worker or all/);
      assert.throws(() => configFromEnv({ LEASE_TTL_SECONDS: '0.1' }), /LEASE_TTL_SECONDS must be a number of seconds, at least 0.5/);
    });
  });
});
