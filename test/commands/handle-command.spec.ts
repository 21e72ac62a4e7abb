import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { type AppendResult, type ExpectedRevision, type NewEvent, type StreamName, WrongExpectedRevision } from '../../src/adapters/event-store/port';
import { RESERVATION_PER_BOT } from '../../src/domain/team/token-prices';
import { createBot, meetingLockStreamFor, type CreateBotRefusal, type NewBot } from '../../src/commands/create-bot';
import { handleCommand } from '../../src/commands/handle-command';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { meetingLockDecider } from '../../src/domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent } from '../../src/domain/meeting-lock/meeting-lock-events';
import type { TeamState } from '../../src/domain/team/team-decider';
import { teamStreamName } from '../../src/domain/team/team-events';
import { BarrierStore, CompetingAppendStore, ConflictCountingStore, FailingAppendStore, ReadBarrier, T0, createTeam, depsOver } from './support';
import { sqliteFiles } from '../support/sqlite-files';

const newBot = (team_id: string, meeting_url: string, allow_multiple_bots: boolean): NewBot => ({
  team_id,
  meeting_url,
  platform: 'vc',
  bot_name: 'Notetaker',
  extra: null,
  config: { ...defaultBotConfig(), allow_multiple_bots },
  created_by: null,
});

type Present = Extract<TeamState, { kind: 'present' }>;
const present = (state: TeamState): Present => {
  if (state.kind !== 'present') throw new assert.AssertionError({ message: 'the team does not exist' });
  return state;
};

/** For assertion messages: results carry bigint positions. */
const show = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

const refusalCode = (r: E.Either<CreateBotRefusal, unknown>) => (E.isLeft(r) ? r.left.code : 'created');

describe('command handler: races between processes on one event store (SQLite)', () => {
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(async () => {
    await files.cleanup();
  });

  /**
   * Two connections to one file, each wrapped in a store instance of its own, hence with its own
   * per-store mutex and state cache: two service processes. `fresh()` opens another connection with an
   * empty cache, to read what is really stored.
   */
  const twoProcesses = (barrier?: ReadBarrier) => {
    const file = files.newFile();
    const wrap = (): ConflictCountingStore => (barrier ? new BarrierStore(files.open(file), barrier) : new ConflictCountingStore(files.open(file)));
    const a = wrap();
    const b = wrap();
    return { a, b, depsA: depsOver(a), depsB: depsOver(b), setup: depsOver(files.open(file)), fresh: () => depsOver(files.open(file)) };
  };

  describe('(a) two exclusive creations for one team and meeting URL at the same time', () => {
    it('both decide on the same empty lock: exactly one bot is created, the other gets BOT_ALREADY_EXISTS naming it', async () => {
      const barrier = new ReadBarrier('meeting-lock-', 2);
      const { a, b, depsA, depsB, setup, fresh } = twoProcesses(barrier);
      const team = await createTeam(setup);
      const url = 'https://vc.localhost/j/111222333';
      barrier.arm();

      const results = await Promise.all([createBot(depsA, newBot(team, url, false)), createBot(depsB, newBot(team, url, false))]);

      const created = results.filter(E.isRight).map((r) => r.right.bot_id);
      const refused = results.filter(E.isLeft).map((r) => r.left);
      assert.equal(created.length, 1, show(results));
      assert.equal(refused.length, 1);
      assert.deepEqual(refused[0], {
        code: 'BOT_ALREADY_EXISTS',
        message: 'A bot for this meeting was created less than 5 minutes ago',
        existing_bot_id: created[0],
      });
      assert.ok(a.conflicts + b.conflicts >= 1, 'the loser found the winner through a revision conflict and a retry');

      const lock = await fresh().eventStore.readStream(meetingLockStreamFor(team, url));
      assert.deepEqual(lock.map((e) => [e.type, e.data.bot_id]), [['MeetingLocked', created[0]]]);
      const ledger = present(await loadTeam(fresh(), team));
      assert.deepEqual([...ledger.reservations.keys()], created, "the loser's reservation was released");
      assert.deepEqual([...ledger.recentCreations].map((c) => c.bot_id), created);
    });

    it('over many rounds without forced interleaving, never two bots for one meeting', async () => {
      const { depsA, depsB, setup, fresh } = twoProcesses();
      const team = await createTeam(setup, { daily_bot_cap: 1000 });
      for (let round = 0; round < 15; round++) {
        const url = `https://vc.localhost/j/${900000 + round}`;
        const results = await Promise.all([createBot(depsA, newBot(team, url, false)), createBot(depsB, newBot(team, url, false))]);
        assert.deepEqual(results.map(refusalCode).sort(), ['BOT_ALREADY_EXISTS', 'created'], `round ${round}`);
      }
      const ledger = present(await loadTeam(fresh(), team));
      assert.equal(ledger.reservations.size, 15);
      assert.equal(ledger.recentCreations.length, 15, 'refused duplicates do not count towards the daily cap');
    });
  });

  describe('(b) the daily bot cap with two processes creating at once', () => {
    it('cap 3, six creations from each process at the same time: exactly 3 bots, the rest DAILY_BOT_CAP_REACHED', async () => {
      const barrier = new ReadBarrier('team-', 2);
      const { a, b, depsA, depsB, setup, fresh } = twoProcesses(barrier);
      const team = await createTeam(setup, { daily_bot_cap: 3 });
      barrier.arm();

      const fromEach = (deps: typeof depsA, who: string) =>
        Array.from({ length: 6 }, (_, i) => createBot(deps, newBot(team, `https://vc.localhost/j/${who}${i}`, true)));
      const results = await Promise.all([...fromEach(depsA, '1'), ...fromEach(depsB, '2')]);

      const codes = results.map(refusalCode);
      assert.equal(codes.filter((c) => c === 'created').length, 3, codes.join(', '));
      assert.equal(codes.filter((c) => c === 'DAILY_BOT_CAP_REACHED').length, 9, codes.join(', '));
      assert.ok(a.conflicts + b.conflicts >= 1, 'the processes raced on the ledger');

      const ledger = present(await loadTeam(fresh(), team));
      assert.equal(ledger.recentCreations.length, 3);
      assert.equal(ledger.reservations.size, 3);
      assert.equal(ledger.reservedTotal, 1500);
    });

    it('repeated rounds with the cap nearly reached: never exceeded', async () => {
      const { depsA, depsB, setup, fresh } = twoProcesses();
      const team = await createTeam(setup, { daily_bot_cap: 5 });
      for (let round = 0; round < 4; round++) {
        await Promise.all([0, 1, 2].flatMap((i) => [
          createBot(depsA, newBot(team, `https://vc.localhost/j/a${round}${i}`, true)),
          createBot(depsB, newBot(team, `https://vc.localhost/j/b${round}${i}`, true)),
        ]));
        const ledger = present(await loadTeam(fresh(), team));
        assert.equal(ledger.recentCreations.length, Math.min(5, 6 * (round + 1)), `after round ${round}`);
      }
    });
  });

  describe('(c) an append that meets a conflict is decided again on the new history', () => {
    const reservedBy = (team_id: string, bot_id: string) => () => ({
      id: randomUUID(),
      type: 'TokensReserved',
      data: { team_id, bot_id, amount: 500, at: T0 },
    });

    it('another process reserves between our read and our append: ours is retried and both reservations stand', async () => {
      const file = files.newFile();
      const setup = depsOver(files.open(file));
      const team = await createTeam(setup);
      const store = new CompetingAppendStore(files.open(file), teamStreamName(team), reservedBy(team, 'bot-of-the-other-process'));

      const result = await handleTeamCommand(depsOver(store), team, { type: 'ReserveTokensForBot', bot_id: 'our-bot', now: T0 });

      assert.ok(E.isRight(result), show(result));
      assert.equal(store.conflicts, 1);
      assert.equal(store.appendsAttempted, 2, 'one conflict, one retry');
      assert.deepEqual(result.right.events.map((e) => e.type), ['TokensReserved']);
      const state = present(result.right.state);
      assert.deepEqual([...state.reservations.keys()], ['bot-of-the-other-process', 'our-bot']);
      assert.equal(state.reservedTotal, 1000);

      const stored = await setup.eventStore.readStream(teamStreamName(team));
      assert.deepEqual(stored.slice(-2).map((e) => e.data.bot_id), ['bot-of-the-other-process', 'our-bot']);
    });

    it('the retried decision sees the competing event: at a cap of 1 the other process took the last place', async () => {
      const file = files.newFile();
      const setup = depsOver(files.open(file));
      const team = await createTeam(setup, { daily_bot_cap: 1 });
      const store = new CompetingAppendStore(files.open(file), teamStreamName(team), reservedBy(team, 'bot-of-the-other-process'));

      const result = await handleTeamCommand(depsOver(store), team, { type: 'ReserveTokensForBot', bot_id: 'our-bot', now: T0 });

      assert.ok(E.isLeft(result));
      assert.equal(result.left.code, 'DAILY_BOT_CAP_REACHED');
      assert.equal(store.conflicts, 1);
      const ledger = present(await loadTeam(depsOver(files.open(file)), team));
      assert.deepEqual([...ledger.reservations.keys()], ['bot-of-the-other-process']);
    });

    it('the meeting lock: another process registers an exclusive bot first, our exclusive bot is refused after the retry', async () => {
      const file = files.newFile();
      const url = 'https://vc.localhost/j/42';
      const stream = meetingLockStreamFor('team-1', url);
      const store = new CompetingAppendStore(files.open(file), stream, () => ({
        id: randomUUID(),
        type: 'MeetingLocked',
        data: { team_id: 'team-1', meeting_url: url, bot_id: 'bot-of-the-other-process', allow_multiple_bots: false, at: T0 },
      }));

      const result = await handleCommand(store, stream, meetingLockDecider, MeetingLockEvent, {
        type: 'RegisterBotForMeeting',
        team_id: 'team-1',
        meeting_url: url,
        bot_id: 'our-bot',
        allow_multiple_bots: false,
        now: T0,
      });

      assert.deepEqual(E.isLeft(result) && { code: result.left.code, existing: result.left.existing_bot_id }, {
        code: 'BOT_ALREADY_EXISTS',
        existing: 'bot-of-the-other-process',
      });
      assert.equal(store.conflicts, 1);
    });

    it('after a conflict the cached state is the stored one: the next command through the same store builds on it', async () => {
      const file = files.newFile();
      const setup = depsOver(files.open(file));
      const team = await createTeam(setup);
      const store = new CompetingAppendStore(files.open(file), teamStreamName(team), reservedBy(team, 'bot-of-the-other-process'));
      const deps = depsOver(store);

      await handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: 'our-bot', now: T0 });
      const next = await handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: 'our-second-bot', now: T0 });

      assert.ok(E.isRight(next));
      const cached = present(next.right.state);
      const stored = present(await loadTeam(depsOver(files.open(file)), team));
      assert.deepEqual([...cached.reservations.entries()], [...stored.reservations.entries()]);
      assert.equal(cached.reservedTotal, 1500);
      assert.equal(cached.balance, stored.balance);
    });

    it("a cached state is completed with another process's appends before the next decision", async () => {
      const { depsA, depsB, setup } = twoProcesses();
      const team = await createTeam(setup, { daily_bot_cap: 2 });
      // A caches the ledger with its own bot; B adds one A has never seen; A must now be at the cap.
      assert.ok(E.isRight(await handleTeamCommand(depsA, team, { type: 'ReserveTokensForBot', bot_id: 'a-1', now: T0 })));
      assert.ok(E.isRight(await handleTeamCommand(depsB, team, { type: 'ReserveTokensForBot', bot_id: 'b-1', now: T0 })));
      const third = await handleTeamCommand(depsA, team, { type: 'ReserveTokensForBot', bot_id: 'a-2', now: T0 });
      assert.ok(E.isLeft(third));
      assert.equal(third.left.code, 'DAILY_BOT_CAP_REACHED');
    });

    it('commands of one process on one stream are decided one after another: ten at once never conflict', async () => {
      const file = files.newFile();
      const store = new ConflictCountingStore(files.open(file));
      const deps = depsOver(store);
      const team = await createTeam(deps);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: `bot-${i}`, now: T0 })),
      );
      assert.ok(results.every(E.isRight));
      assert.equal(store.conflicts, 0);
      assert.equal(present(await loadTeam(depsOver(files.open(file)), team)).reservations.size, 10);
    });

    it('a stream that conflicts on every attempt gives up with WrongExpectedRevision after 10 attempts', async () => {
      const file = files.newFile();
      const setup = depsOver(files.open(file));
      const team = await createTeam(setup);
      let n = 0;
      const store = new CompetingAppendStore(
        files.open(file),
        teamStreamName(team),
        () => ({ id: randomUUID(), type: 'TokensAdded', data: { team_id: team, operation_id: `op-${n++}`, amount: 1, at: T0 } }),
        Number.POSITIVE_INFINITY,
      );
      await assert.rejects(
        handleTeamCommand(depsOver(store), team, { type: 'ReserveTokensForBot', bot_id: 'our-bot', now: T0 }),
        (error: unknown) => error instanceof WrongExpectedRevision,
      );
      assert.equal(store.conflicts, 10);
    });
  });

  describe('(d) one process, many commands at once: decided in order, written together (group commit)', () => {
    /** Counts the appends that reach the store, per stream prefix. */
    class AppendCountingStore extends ConflictCountingStore {
      readonly appends = new Map<string, number>();
      override async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
        const prefix = stream.split('-')[0]!;
        this.appends.set(prefix, (this.appends.get(prefix) ?? 0) + 1);
        return super.appendToStream(stream, events, expected);
      }
    }

    it('two creations racing for the last reservation: exactly one bot, the other INSUFFICIENT_TOKENS, nothing left of it', async () => {
      const file = files.newFile();
      const deps = depsOver(files.open(file));
      const team = await createTeam(deps, { initial_tokens: RESERVATION_PER_BOT });
      const results = await Promise.all([0, 1].map((i) => createBot(deps, newBot(team, `https://vc.localhost/j/77700${i}`, true))));
      assert.deepEqual(results.map(refusalCode).sort(), ['INSUFFICIENT_TOKENS', 'created'], show(results));
      const loser = results.find(E.isLeft)!;
      assert.deepEqual(loser.left, { code: 'INSUFFICIENT_TOKENS', message: 'Insufficient tokens to reserve for a new bot', available: 0, required: RESERVATION_PER_BOT });
      const ledger = present(await loadTeam(depsOver(files.open(file)), team));
      assert.deepEqual([...ledger.reservations.keys()], results.filter(E.isRight).map((r) => r.right.bot_id));
      assert.equal(ledger.recentCreations.length, 1);
    });

    it('two creations racing for the last place under the daily cap: exactly one bot, the other DAILY_BOT_CAP_REACHED', async () => {
      const file = files.newFile();
      const deps = depsOver(files.open(file));
      const team = await createTeam(deps, { daily_bot_cap: 3 });
      for (let i = 0; i < 2; i++) assert.ok(E.isRight(await createBot(deps, newBot(team, `https://vc.localhost/j/5550${i}`, true))));
      const results = await Promise.all([0, 1].map((i) => createBot(deps, newBot(team, `https://vc.localhost/j/6660${i}`, true))));
      assert.deepEqual(results.map(refusalCode).sort(), ['DAILY_BOT_CAP_REACHED', 'created'], show(results));
      assert.equal(present(await loadTeam(depsOver(files.open(file)), team)).recentCreations.length, 3);
    });

    it('a burst of reservations on one ledger is written in fewer appends than commands, every one decided on the ones before it', async () => {
      const file = files.newFile();
      const store = new AppendCountingStore(files.open(file));
      const deps = depsOver(store);
      const team = await createTeam(deps, { daily_bot_cap: 12 });
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: `bot-${i}`, now: T0 })),
      );
      assert.deepEqual(results.map((r) => (E.isLeft(r) ? r.left.code : 'reserved')), [...Array(12).fill('reserved'), ...Array(4).fill('DAILY_BOT_CAP_REACHED')]);
      assert.ok(store.appends.get('team')! < 12, `${store.appends.get('team')} appends to the ledger for 12 reservations (and the team's creation)`);
      assert.equal(store.conflicts, 0);
      const stored = await files.open(file).readStream(teamStreamName(team));
      assert.deepEqual(stored.filter((e) => e.type === 'TokensReserved').map((e) => e.data.bot_id), Array.from({ length: 12 }, (_, i) => `bot-${i}`), 'in the order they were asked');
    });

    it('when the append of a batch fails, a refusal that rested on its events is not given: that caller hears the failure', async () => {
      const file = files.newFile();
      const setup = depsOver(files.open(file));
      const team = await createTeam(setup, { daily_bot_cap: 2 });
      assert.ok(E.isRight(await handleTeamCommand(setup, team, { type: 'ReserveTokensForBot', bot_id: 'first', now: T0 })));
      const deps = depsOver(new FailingAppendStore(files.open(file), 'team-', false));
      const [taken, refused, refusedAlso] = await Promise.allSettled(
        ['second', 'third', 'fourth'].map((bot_id) => handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id, now: T0 })),
      );
      assert.equal(taken.status, 'rejected', 'the append failed');
      assert.equal(refused.status, 'rejected', 'refused only because "second" took the last place, which was never written');
      assert.equal(refusedAlso.status, 'rejected');
      const retried = await handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: 'third', now: T0 });
      assert.ok(E.isRight(retried), 'the place is still free');
    });
  });
});
