import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../src/adapters/event-store/port';
import { SqliteReadStore } from '../../src/adapters/read-store/sqlite-read-store';
import { handleTeamCommand } from '../../src/commands/team-commands';
import { allProjections } from '../../src/capabilities';
import { TEAMS } from '../../src/projections/team-view';
import { ProjectionRunner } from '../../src/subscribers/projection-runner';
import { sqliteFiles } from '../support/sqlite-files';
import { recordingLogger } from '../subscribers/support';

const createTeam = async (eventStore: EventStore, name: string): Promise<string> => {
  const teamId = randomUUID();
  const created = await handleTeamCommand({ eventStore }, teamId, {
    type: 'CreateTeam', team_id: teamId, name, daily_bot_cap: 10, rate_limit_per_second: 10, initial_tokens: 0, now: '2026-01-01T00:00:00.000Z',
  });
  assert.equal(created._tag, 'Right');
  return teamId;
};

describe('ProjectionRunner over a persistent read store', () => {
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(() => files.cleanup());

  const runOnce = async (eventStore: EventStore, readModelsFile: string) => {
    const { log, records } = recordingLogger();
    const readStore = new SqliteReadStore(readModelsFile);
    const runner = new ProjectionRunner(eventStore, readStore, allProjections, log);
    await runner.start();
    return {
      readStore,
      caughtUp: records.find((r) => r.msg === 'read models caught up with the log')!,
      stop: async () => {
        await runner.stop();
        await readStore.close();
      },
    };
  };

  it('resumes from its checkpoint over the same log, folding only what came after', async () => {
    const eventStore = files.open(files.newFile());
    const readModels = files.newFile();
    const first = await runOnce(eventStore, readModels);
    const before = await createTeam(eventStore, 'before');
    await first.stop();
    const after = await createTeam(eventStore, 'after');
    const second = await runOnce(eventStore, readModels);
    try {
      assert.notEqual(second.caughtUp.resumed_from, null);
      assert.equal(second.caughtUp.events_folded, 1, "only the later team's TeamCreated");
      assert.equal((await second.readStore.get(TEAMS, before))?.doc.name, 'before');
      assert.equal((await second.readStore.get(TEAMS, after))?.doc.name, 'after');
    } finally {
      await second.stop();
    }
  });

  it('folds again from the start when the read models were made from another log', async () => {
    const readModels = files.newFile();
    const firstLog = files.open(files.newFile());
    const first = await runOnce(firstLog, readModels);
    const ofFirstLog = await createTeam(firstLog, 'first log');
    await first.stop();
    const otherLog = files.open(files.newFile());
    const ofOtherLog = await createTeam(otherLog, 'other log');
    await createTeam(otherLog, 'other log, second team');
    const second = await runOnce(otherLog, readModels);
    try {
      assert.equal(second.caughtUp.resumed_from, null, 'folded from the start');
      assert.equal(await second.readStore.get(TEAMS, ofFirstLog), null, 'nothing of the other history is left');
      assert.equal((await second.readStore.get(TEAMS, ofOtherLog))?.doc.name, 'other log');
    } finally {
      await second.stop();
    }
  });
});
