import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { keyVaultDatabase } from '../../src/adapters/key-vault/mongo-key-records';
import { configFromEnv } from '../../src/config';
import { startService } from '../../src/service';
import { sharedFerretdb } from '../support/ferretdb';
import { freePort } from '../support/free-port';
import { apiClient, createTeam, MEETING } from '../support/http-client';
import { freshPostgresDatabase } from '../support/postgres';
import { startTestService, type TestService } from '../support/test-service';

/** Subscribers' checkpoints the service saved in PostgreSQL. */
const postgresCheckpoints = async (url: string): Promise<string[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>("SELECT name FROM checkpoints WHERE name LIKE 'subscriber:%' ORDER BY name")).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
};

const startedWith = (t: TestService, stores: Record<string, string>) => {
  const line = t
    .logText()
    .split('\n')
    .find((l) => l.includes('service listening'));
  assert.ok(line, 'the service logged its start');
  const logged = JSON.parse(line);
  for (const [store, kind] of Object.entries(stores)) assert.equal(logged[store], kind, `${store} in ${line}`);
};

describe('the service on shared stores', function () {
  this.timeout(60_000);

  describe('DATABASE_URL: the event log, checkpoints and leases in PostgreSQL', () => {
    let databaseUrl: string;
    let t: TestService;
    // The deployment's secret: every machine of it has the same.
    const serviceSecret = randomBytes(32).toString('hex');
    before(async () => {
      databaseUrl = await freshPostgresDatabase('service');
      t = await startTestService({ databaseUrl, serviceSecret });
    });
    after(() => t?.stop());

    it('serves writes and reads at once, and keeps them in the database rather than the data folder', async () => {
      startedWith(t, { event_store: 'postgresql', read_store: 'sqlite', checkpoint_store: 'postgresql', key_vault: 'postgresql' });
      const team = await createTeam(t.url);
      const api = apiClient(t.url, team.api_key);
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'On PostgreSQL' });
      assert.equal(created.status, 201);
      const botId = created.body.data.bot_id;
      assert.equal((await api.get(`/v2/bots/${botId}`)).status, 200, 'read your own write');
      await t.stop();
      assert.ok((await postgresCheckpoints(databaseUrl)).includes('subscriber:settle-tokens-when-bot-ends'), 'subscribers checkpoint in PostgreSQL');
      // Another machine: a new, empty data folder on the same database.
      t = await startTestService({ databaseUrl, serviceSecret });
      const again = await apiClient(t.url, team.api_key).get(`/v2/bots/${botId}`);
      assert.equal(again.status, 200);
      assert.equal(again.body.data.bot_name, 'On PostgreSQL', "the bot's name opens with its key, kept in the database too");
    });
  });

  describe('DATABASE_URL and MONGO_URL: read models in MongoDB (FerretDB)', () => {
    let t: TestService;
    let mongo: { url: string; database: string };
    before(async () => {
      const ferretdb = await sharedFerretdb();
      mongo = { url: ferretdb.url, database: ferretdb.databaseName('service') };
      t = await startTestService({ databaseUrl: await freshPostgresDatabase('service_mongo'), mongo });
    });
    after(async () => {
      await t?.stop();
      const client = new MongoClient(mongo.url);
      await client.db(mongo.database).dropDatabase().finally(() => client.close());
    });

    it("stores and sorts bots whose extra holds what a MongoDB-wire server refuses (dotted keys, $ keys, NUL, nested arrays)", async () => {
      startedWith(t, { event_store: 'postgresql', read_store: 'mongodb', checkpoint_store: 'postgresql', key_vault: 'postgresql' });
      const api = apiClient(t.url, (await createTeam(t.url)).api_key);
      const extras = {
        odd: { deal: 'b', 'a.b': 'dotted', $price: 3, note: 'nul\u0000inside', grid: [[1, 2], [3]] },
        first: { deal: 'a' },
        none: { other: 'no deal field' },
      };
      const ids: Record<string, string> = {};
      for (const [name, extra] of Object.entries(extras)) {
        const created = await api.post('/bots', { meeting_url: MEETING, bot_name: name, extra });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        ids[name] = created.body.bot_id;
      }
      const listed = async (query: string) => {
        const response = await api.get(`/bots/bots_with_metadata?${query}`);
        assert.equal(response.status, 200, JSON.stringify(response.body));
        return response.body.bots as { bot_name: string; extra: unknown }[];
      };
      assert.deepEqual((await listed('sort_by_extra=deal:asc')).map((b) => b.bot_name), ['first', 'odd', 'none'], 'bots without the field last');
      assert.deepEqual((await listed('sort_by_extra=deal:desc')).map((b) => b.bot_name), ['odd', 'first', 'none']);
      const [odd] = await listed('filter_by_extra=deal:b');
      assert.deepEqual(odd?.extra, extras.odd, 'extra round-trips exactly');
    });
  });

  describe('MONGO_URL alone: read models, checkpoints, leases and keys in MongoDB (FerretDB)', () => {
    it('keeps subscribers checkpoints beside the read models, and the bots\' keys in a database of their own', async () => {
      const ferretdb = await sharedFerretdb();
      const mongo = { url: ferretdb.url, database: ferretdb.databaseName('service_checkpoints') };
      const t = await startTestService({ mongo });
      const client = new MongoClient(mongo.url);
      try {
        startedWith(t, { event_store: 'sqlite', read_store: 'mongodb', checkpoint_store: 'mongodb', key_vault: 'mongodb' });
        const api = apiClient(t.url, (await createTeam(t.url)).api_key);
        const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'On MongoDB' });
        const botId: string = created.body.data.bot_id;
        assert.equal((await api.get(`/v2/bots/${botId}`)).status, 200);
        await t.stop();
        const saved = await client.db(mongo.database).collection('_subscriber_checkpoints').distinct('name');
        assert.ok(saved.includes('subscriber:settle-tokens-when-bot-ends'), JSON.stringify(saved));
        assert.equal(await client.db(keyVaultDatabase(mongo.database)).collection<{ _id: string }>('key_vault').countDocuments({ _id: botId }), 1, "the bot's key");
      } finally {
        await client.db(mongo.database).dropDatabase();
        await client.db(keyVaultDatabase(mongo.database)).dropDatabase();
        await client.close();
      }
    });
  });

  describe('start', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shared-stores-'));
    after(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = async (env: Record<string, string>) => configFromEnv({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', BOT_SLOTS: '0', LOG_LEVEL: 'fatal', ...env });

    it('refuses DATABASE_URL together with EVENTSTORE_URL, naming both', () => {
      assert.throws(
        () => configFromEnv({ DATABASE_URL: 'postgres://db/events', EVENTSTORE_URL: 'esdb://es:2113' }),
        /DATABASE_URL \(PostgreSQL\) and EVENTSTORE_URL \(EventStoreDB\) both name the event store: set only one of them/,
      );
      assert.equal(configFromEnv({ DATABASE_URL: 'postgres://db/events' }).databaseUrl, 'postgres://db/events');
      assert.equal(configFromEnv({}).databaseUrl, undefined);
    });

    it('fails with the address, and no password, when DATABASE_URL cannot be reached', async () => {
      const url = `postgres://meeting:secret-password@127.0.0.1:${await freePort()}/events`;
      await assert.rejects(startService(await config({ DATABASE_URL: url })), (error: Error) => {
        assert.match(error.message, /cannot reach PostgreSQL at postgres:\/\/meeting@127\.0\.0\.1:\d+\/events \(DATABASE_URL\)/);
        assert.doesNotMatch(error.message, /secret-password/);
        return true;
      });
    });

    it('fails with the address, and no password, when MONGO_URL cannot be reached', async () => {
      const url = `mongodb://meeting:secret-password@127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=500`;
      await assert.rejects(startService(await config({ MONGO_URL: url })), (error: Error) => {
        assert.match(error.message, /cannot reach MongoDB at mongodb:\/\/meeting@127\.0\.0\.1:\d+\/\?serverSelectionTimeoutMS=500 \(MONGO_URL\)/);
        assert.doesNotMatch(error.message, /secret-password/);
        return true;
      });
    });
  });
});
