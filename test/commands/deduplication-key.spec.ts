import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { handleBotCommand } from '../../src/commands/bot-commands';
import { deduplicationKeyStreamFor } from '../../src/commands/claim-deduplication-key';
import { createBot, meetingLockStreamFor, type NewBot } from '../../src/commands/create-bot';
import { loadTeam } from '../../src/commands/team-commands';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { sqliteFiles } from '../support/sqlite-files';
import { BarrierStore, ReadBarrier, T0, createTeam, depsOver } from './support';

const botWithKey = (team_id: string, key: string | null, meeting_url = 'https://vc.localhost/j/123123123'): NewBot => ({
  team_id,
  meeting_url,
  platform: 'vc',
  bot_name: 'Notetaker',
  extra: null,
  config: { ...defaultBotConfig(), api: 'legacy', deduplication_key: key },
  created_by: null,
});

const show = (value: unknown): string => JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));

const present = <S extends { kind: string }>(state: S) => {
  assert.equal(state.kind, 'present');
  return state as Extract<S, { kind: 'present' }>;
};

describe('create bot: a deduplication key is held by one active bot of the team', () => {
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(async () => {
    await files.cleanup();
  });

  it('refuses a second bot with the key while the first is active, and gives back everything the refused creation took', async () => {
    const file = files.newFile();
    const deps = depsOver(files.open(file));
    const team = await createTeam(deps);
    const first = await createBot(deps, botWithKey(team, 'standup-2025-03-03'));
    assert.ok(E.isRight(first));

    const second = await createBot(deps, botWithKey(team, 'standup-2025-03-03', 'https://vc.localhost/j/999888777'));
    assert.ok(E.isLeft(second));
    assert.deepEqual(second.left, {
      code: 'BOT_ALREADY_EXISTS',
      message: 'An active bot of this team already has this deduplication_key',
      existing_bot_id: first.right.bot_id,
    });
    const ledger = present(await loadTeam(deps, team));
    assert.deepEqual([...ledger.reservations.keys()], [first.right.bot_id], "the refused creation's reservation was released");
    const lock = await deps.eventStore.readStream(meetingLockStreamFor(team, 'https://vc.localhost/j/999888777'));
    assert.deepEqual(lock.map((e) => e.type), ['MeetingLocked', 'MeetingLockReleased'], 'and its meeting registration');
  });

  it('frees the key when its bot ends: the next bot claims it, naming the ended one', async () => {
    const deps = depsOver(files.open(files.newFile()));
    const team = await createTeam(deps);
    const first = await createBot(deps, botWithKey(team, 'k'));
    assert.ok(E.isRight(first));
    const left = await handleBotCommand(deps, first.right.bot_id, { type: 'RequestLeave', now: T0 });
    assert.ok(E.isRight(left) && left.right.events[0]?.type === 'BotFailed');

    const second = await createBot(deps, botWithKey(team, 'k'));
    assert.ok(E.isRight(second), show(second));
    const stream = await deps.eventStore.readStream(deduplicationKeyStreamFor(team, 'k'));
    assert.deepEqual(
      stream.map((e) => [e.type, e.data.bot_id, e.data.previous_bot_id]),
      [
        ['DeduplicationKeyClaimed', first.right.bot_id, null],
        ['DeduplicationKeyClaimed', second.right.bot_id, first.right.bot_id],
      ],
    );
  });

  it('keys are exact text and per team; bots without a key claim nothing', async () => {
    const deps = depsOver(files.open(files.newFile()));
    const team = await createTeam(deps);
    const other = await createTeam(deps);
    for (const [teamId, key] of [[team, 'Weekly'], [team, 'weekly'], [team, 'weekly '], [other, 'Weekly']] as const) {
      assert.ok(E.isRight(await createBot(deps, botWithKey(teamId, key))), `${teamId} ${key}`);
    }
    assert.ok(E.isRight(await createBot(deps, botWithKey(team, null))));
    assert.ok(E.isRight(await createBot(deps, botWithKey(team, null))));
  });

  it('two creations with one key at the same time, in two processes: exactly one bot holds it', async () => {
    const file = files.newFile();
    const barrier = new ReadBarrier('deduplication-key-', 2);
    const a = new BarrierStore(files.open(file), barrier);
    const b = new BarrierStore(files.open(file), barrier);
    const setup = depsOver(files.open(file));
    const team = await createTeam(setup);
    barrier.arm();

    const results = await Promise.all([
      createBot(depsOver(a), botWithKey(team, 'race', 'https://vc.localhost/j/100000001')),
      createBot(depsOver(b), botWithKey(team, 'race', 'https://vc.localhost/j/100000002')),
    ]);
    const created = results.filter(E.isRight).map((r) => r.right.bot_id);
    const refused = results.filter(E.isLeft).map((r) => r.left);
    assert.equal(created.length, 1, show(results));
    assert.deepEqual(refused.map((r) => [r.code, 'existing_bot_id' in r ? r.existing_bot_id : null]), [['BOT_ALREADY_EXISTS', created[0]]]);
    assert.ok(a.conflicts + b.conflicts >= 1, 'the loser met the winner through a revision conflict');
    const fresh = depsOver(files.open(file));
    const stream = await fresh.eventStore.readStream(deduplicationKeyStreamFor(team, 'race'));
    assert.deepEqual(stream.map((e) => [e.type, e.data.bot_id]), [['DeduplicationKeyClaimed', created[0]]]);
    assert.deepEqual([...present(await loadTeam(fresh, team)).reservations.keys()], created);
  });
});
