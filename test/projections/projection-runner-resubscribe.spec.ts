import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MemoryReadStore } from '../../src/adapters/read-store/memory-read-store';
import { SqliteReadStore } from '../../src/adapters/read-store/sqlite-read-store';
import { sqliteFiles } from '../support/sqlite-files';
import type { ReadDocument, ReadStore } from '../../src/adapters/read-store/port';
import { handleTeamCommand } from '../../src/commands/team-commands';
import { allProjections } from '../../src/capabilities';
import { ProjectionRunner } from '../../src/subscribers/projection-runner';
import { TEAMS } from '../../src/projections/team-view';
import { FlakyEventStore, recordingLogger, temporarySqliteStore } from '../subscribers/support';

/**
 * A read store whose next upsert fails once, like a MongoDB write lost to a failover (in SQLite the
 * failed event's other writes are rolled back with its savepoint).
 */
const failingOnce = <S extends ReadStore>(store: S): S & { failNextUpsert: boolean } => {
  const upsert = store.upsert.bind(store);
  const failing = Object.assign(store, {
    failNextUpsert: false,
    upsert: async <D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> => {
      if (failing.failNextUpsert) {
        failing.failNextUpsert = false;
        throw new Error('read store write failed');
      }
      return upsert(collection, doc, position);
    },
  });
  return failing;
};

const createTeam = async (eventStore: FlakyEventStore, teamId: string) => {
  const created = await handleTeamCommand({ eventStore }, teamId, {
    type: 'CreateTeam',
    team_id: teamId,
    name: 'resubscribe',
    daily_bot_cap: 10,
    rate_limit_per_second: 10,
    initial_tokens: 0,
    now: '2026-01-01T00:00:00.000Z',
  });
  assert.equal(created._tag, 'Right');
  return created._tag === 'Right' ? created.right.position! : 0n;
};

describe('ProjectionRunner: read-your-writes survives a failed subscription', () => {
  let sqlite: ReturnType<typeof temporarySqliteStore>;
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    sqlite = temporarySqliteStore();
    files = sqliteFiles();
  });
  afterEach(async () => {
    await sqlite.dispose();
    await files.cleanup();
  });

  for (const [name, makeStore] of [
    ['memory', () => failingOnce(new MemoryReadStore())],
    ['SQLite', () => failingOnce(new SqliteReadStore(files.newFile()))],
  ] as const)
  it(`applies the event whose projection failed once it resubscribes (${name} read store)`, async () => {
    const { log, records } = recordingLogger();
    const readStore = makeStore();
    const eventStore = new FlakyEventStore(sqlite.store);
    const runner = new ProjectionRunner(eventStore, readStore, allProjections, log, { initialMs: 1, maxMs: 10 });
    await runner.start();
    try {
      readStore.failNextUpsert = true;
      const teamId = randomUUID();
      const position = await createTeam(eventStore, teamId);
      assert.equal(await runner.waitForPosition(position, 15_000), true);
      assert.equal((await readStore.get(TEAMS, teamId))?.doc.id, teamId);
      assert.equal(records.filter((r) => r.subscriber === 'projections' && r.err?.message === 'read store write failed').length, 1);
    } finally {
      await runner.stop();
      await readStore.close();
    }
  });

  it('resumes after the store subscription is lost', async () => {
    const { log } = recordingLogger();
    const readStore = new MemoryReadStore();
    // The live subscription dies after one event; later writes must still become visible.
    const eventStore = new FlakyEventStore(sqlite.store, 1);
    const runner = new ProjectionRunner(eventStore, readStore, allProjections, log, { initialMs: 1, maxMs: 10 });
    await runner.start();
    try {
      const first = randomUUID();
      assert.equal(await runner.waitForPosition(await createTeam(eventStore, first), 15_000), true);
      const second = randomUUID();
      assert.equal(await runner.waitForPosition(await createTeam(eventStore, second), 15_000), true);
      assert.ok(await readStore.get(TEAMS, second));
      assert.equal(eventStore.subscribedFrom.length, 2);
    } finally {
      await runner.stop();
    }
  });
});
