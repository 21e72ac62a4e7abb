import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MemoryReadStore } from '../../src/adapters/read-store/memory-read-store';
import type { ReadDocument } from '../../src/adapters/read-store/port';
import { handleTeamCommand } from '../../src/commands/team-commands';
import { allProjections } from '../../src/capabilities';
import { ProjectionRunner } from '../../src/subscribers/projection-runner';
import { TEAMS } from '../../src/projections/team-view';
import { FlakyEventStore, recordingLogger, temporarySqliteStore } from '../subscribers/support';

/** A read store whose next upsert fails once, like a MongoDB write lost to a failover. */
class ReadStoreFailingOnce extends MemoryReadStore {
  failNextUpsert = false;
  override async upsert<D extends ReadDocument>(collection: string, doc: D, position: bigint): Promise<boolean> {
    if (this.failNextUpsert) {
      this.failNextUpsert = false;
      throw new Error('read store write failed');
    }
    return super.upsert(collection, doc, position);
  }
}

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
  beforeEach(() => {
    sqlite = temporarySqliteStore();
  });
  afterEach(() => sqlite.dispose());

  it('applies the event whose projection failed once it resubscribes', async () => {
    const { log, records } = recordingLogger();
    const readStore = new ReadStoreFailingOnce();
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
