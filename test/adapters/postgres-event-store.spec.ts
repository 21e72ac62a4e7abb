import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresEventStore } from '../../src/adapters/event-store/postgres-event-store';
import { freePort } from '../support/free-port';
import { freshPostgresDatabase } from '../support/postgres';
import { collect, eventStoreContract, newEvent, uniqueStream, waitUntil, waitUntilAsync } from './event-store.contract';

const SLOW_TYPE = 'SlowCommit';

/**
 * A trigger that holds every append of a SlowCommit event for half a second after its insert took a
 * position, before the commit: the transaction a plain sequence lets other appends overtake.
 */
const installSlowCommits = async (url: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      CREATE OR REPLACE FUNCTION commit_slowly() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(0.5); RETURN NULL; END $$;
      CREATE OR REPLACE TRIGGER commit_slowly AFTER INSERT ON events FOR EACH ROW WHEN (NEW.type = '${SLOW_TYPE}') EXECUTE FUNCTION commit_slowly();
    `);
  } finally {
    await client.end();
  }
};

const sleepingAppends = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'");
    return rows[0].n > 0;
  } finally {
    await client.end();
  }
};

describe('PostgreSQL event store', function () {
  this.timeout(60_000);
  let url = '';

  before(async () => {
    url = await freshPostgresDatabase('event_store');
    // The table exists once a store connected; the trigger needs it.
    await (await PostgresEventStore.connect(url)).close();
    await installSlowCommits(url);
  });

  eventStoreContract('PostgreSQL', async () => PostgresEventStore.connect(url), {
    openAgain: async () => PostgresEventStore.connect(url),
    slowCommits: { type: SLOW_TYPE, committing: () => sleepingAppends(url) },
  });

  describe('live delivery', () => {
    it("wakes a subscription on another connection's append by LISTEN/NOTIFY, not by its poll", async () => {
      const writer = await PostgresEventStore.connect(url);
      // A poll this slow cannot deliver within the wait below: only the notice can.
      const reader = await PostgresEventStore.connect(url, { pollIntervalMs: 10 * 60_000 });
      try {
        const stream = uniqueStream();
        const { seen, subscription } = collect(reader, stream, { fromPosition: (await writer.readAll()).at(-1)?.position ?? 0n });
        for (let i = 0; i < 3; i += 1) {
          await writer.appendToStream(stream, [newEvent(`E${i}`)], i === 0 ? 'no_stream' : BigInt(i - 1));
          await waitUntil(() => seen.length === i + 1, `event ${i}`);
        }
        await subscription.stop();
        assert.deepEqual(seen.map((e) => e.type), ['E0', 'E1', 'E2']);
      } finally {
        await Promise.all([writer.close(), reader.close()]);
      }
    });

    it('still delivers by polling while its listening connection is gone, and listens again', async () => {
      const writer = await PostgresEventStore.connect(url);
      const reader = await PostgresEventStore.connect(url, { pollIntervalMs: 200 });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const listeners = async () =>
        (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'")).rows.map((r) => r.pid);
      try {
        const stream = uniqueStream();
        const { seen, subscription } = collect(reader, stream);
        const before = await listeners();
        assert.equal(before.length, 2, 'each store listens on a connection of its own');
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
        await writer.appendToStream(stream, [newEvent('WhileDeaf')], 'no_stream');
        await waitUntil(() => seen.length === 1, 'the event appended while no one listened');
        let now: number[] = [];
        await waitUntilAsync(async () => (now = await listeners()).length === 2, 'both stores to listen again', 10_000);
        assert.ok(now.every((pid) => !before.includes(pid)), 'on new connections');
        await subscription.stop();
      } finally {
        await admin.end();
        await Promise.all([writer.close(), reader.close()]);
      }
    });
  });

  describe('start', () => {
    it('fails at once with the address (and no password) when the server cannot be reached', async () => {
      const port = await freePort();
      await assert.rejects(PostgresEventStore.connect(`postgres://meeting:secret-password@127.0.0.1:${port}/events`), (error: Error) => {
        assert.match(error.message, /cannot reach PostgreSQL at postgres:\/\/meeting@127\.0\.0\.1:\d+\/events \(DATABASE_URL\)/);
        assert.doesNotMatch(error.message, /secret-password/);
        return true;
      });
    });
  });
});
