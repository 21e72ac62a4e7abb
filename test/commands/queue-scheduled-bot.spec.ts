import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/Either';
import type { AppendResult, EventStore, ExpectedRevision, NewEvent, StreamName } from '../../src/adapters/event-store/port';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import { loadBot } from '../../src/commands/bot-commands';
import type { CommandDeps } from '../../src/commands/command-deps';
import { claimDeduplicationKey, deduplicationKeyStreamFor } from '../../src/commands/claim-deduplication-key';
import { meetingLockStreamFor } from '../../src/commands/create-bot';
import { handleCommand } from '../../src/commands/handle-command';
import { queueScheduledBot } from '../../src/commands/queue-scheduled-bot';
import { cancelScheduledBot, scheduleBot } from '../../src/commands/schedule-bot';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { SCHEDULED_BOT_LEAD_MS } from '../../src/domain/bot/schedule-timing';
import { meetingLockDecider } from '../../src/domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent } from '../../src/domain/meeting-lock/meeting-lock-events';
import { teamStreamName } from '../../src/domain/team/team-events';
import { releaseOrphanReservations } from '../../src/subscribers/release-orphan-reservations';
import { SubscriberRunner } from '../../src/subscribers/subscriber-runner';
import { ForwardingStore } from '../support/forwarding-store';
import { sqliteFiles } from '../support/sqlite-files';
import { recordingLogger, waitFor } from '../subscribers/support';
import { CompetingAppendStore, FailingBotAppendStore, T0, createTeam } from './support';

const MEETING = 'https://meet.google.com/abc-defg-hij';
const JOIN_AT = new Date(Date.parse(T0) + 60 * 60_000).toISOString();
const DUE = new Date(Date.parse(JOIN_AT) - SCHEDULED_BOT_LEAD_MS);

const depsAt = (eventStore: EventStore, clock: () => Date): CommandDeps => ({ eventStore, clock, newId: () => randomUUID() });

/** Waits a random 0 to 3 ms before each append: two "processes" then interleave differently every run. */
class JitteryStore extends ForwardingStore {
  override async appendToStream(stream: StreamName, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    await new Promise((r) => setTimeout(r, Math.random() * 3));
    return super.appendToStream(stream, events, expected);
  }
}

describe('queueing a scheduled bot at its time (commands)', () => {
  let files: ReturnType<typeof sqliteFiles>;
  let file: string;
  let now: Date;
  let deps: CommandDeps;
  let teamId: string;

  beforeEach(async () => {
    files = sqliteFiles();
    file = files.newFile();
    now = new Date(T0);
    deps = depsAt(files.open(file), () => now);
    teamId = await createTeam(deps, { initial_tokens: 100_000 });
  });
  afterEach(() => files.cleanup());

  const schedule = async (d: CommandDeps = deps, allow_multiple_bots = true, deduplication_key: string | null = null) => {
    const { storage: _storage, retention_days: _retention, ...requested } = defaultBotConfig();
    const scheduled = await scheduleBot(d, {
      team_id: teamId,
      meeting_url: MEETING,
      platform: 'mt',
      bot_name: 'Later',
      extra: null,
      config: { ...requested, allow_multiple_bots, deduplication_key },
      created_by: null,
      join_at: JOIN_AT,
    });
    assert.ok(E.isRight(scheduled));
    return scheduled.right.bot_id;
  };
  const eventTypes = async (stream: string) => (await deps.eventStore.readStream(stream)).map((e) => e.type);
  const ledgerOf = async (botId: string) =>
    (await deps.eventStore.readStream(teamStreamName(teamId))).filter((e) => e.data.bot_id === botId).map((e) => [e.type, e.data.reason ?? null]);
  const lockOf = async (botId: string) =>
    (await deps.eventStore.readStream(meetingLockStreamFor(teamId, MEETING))).filter((e) => e.data.bot_id === botId).map((e) => e.type);
  const keyClaimsOf = async (key: string) =>
    (await deps.eventStore.readStream(deduplicationKeyStreamFor(teamId, key))).map((e) => [e.type, e.data.bot_id]);
  const openReservations = async () => {
    const team = await loadTeam(depsAt(files.open(file), () => now), teamId);
    return team.kind === 'present' ? [...team.reservations.keys()] : [];
  };

  it('before its queueing time nothing happens; at it the bot is reserved, registered and created', async () => {
    const botId = await schedule();
    now = new Date(DUE.getTime() - 1);
    assert.equal(await queueScheduledBot(deps, botId), 'not_due');
    assert.deepEqual(await ledgerOf(botId), []);
    now = DUE;
    assert.equal(await queueScheduledBot(deps, botId), 'queued');
    assert.deepEqual(await eventTypes(botStreamName(botId)), ['BotScheduled', 'BotCreated']);
    assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null]]);
    assert.deepEqual(await lockOf(botId), ['MeetingLocked']);
    assert.equal(await queueScheduledBot(deps, botId), 'not_scheduled', 'a second try finds it queued');
  });

  it('a deduplication key is claimed at its time: a second bot with the key is refused BOT_ALREADY_EXISTS then, and gives back all it took', async () => {
    const first = await schedule(deps, true, 'weekly-sync');
    const second = await schedule(deps, true, 'weekly-sync');
    assert.deepEqual(await keyClaimsOf('weekly-sync'), [], 'nothing is claimed when scheduling');
    now = DUE;
    assert.equal(await queueScheduledBot(deps, first), 'queued');
    assert.equal(await queueScheduledBot(deps, second), 'refused');
    const refused = await loadBot(deps, second);
    assert.equal(refused.kind === 'present' && refused.status, 'failed');
    assert.deepEqual((await deps.eventStore.readStream(botStreamName(second))).at(-1)!.data.error_code, 'BOT_ALREADY_EXISTS');
    assert.deepEqual(await ledgerOf(second), [['TokensReserved', null], ['TokensReleased', 'creation_aborted']]);
    assert.deepEqual(await lockOf(second), ['MeetingLocked', 'MeetingLockReleased']);
    assert.deepEqual(await keyClaimsOf('weekly-sync'), [['DeduplicationKeyClaimed', first]]);
  });

  describe('a cancel racing the queueing in another process: exactly one wins', () => {
    it('the cancel is appended between the queueing’s read and its append: the queueing gives back what it took', async () => {
      const botId = await schedule();
      now = DUE;
      const cancelledMeanwhile = () => ({
        id: randomUUID(),
        type: 'BotFailed',
        data: { bot_id: botId, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'cancelled', usage: { recorded_seconds: 0, waiting_room_seconds: 0 }, at: now.toISOString() },
      });
      const racing = depsAt(new CompetingAppendStore(files.open(file), botStreamName(botId), cancelledMeanwhile), () => now);
      assert.equal(await queueScheduledBot(racing, botId), 'not_scheduled');
      assert.deepEqual(await eventTypes(botStreamName(botId)), ['BotScheduled', 'BotFailed']);
      assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null], ['TokensReleased', 'creation_aborted']]);
      assert.deepEqual(await lockOf(botId), ['MeetingLocked', 'MeetingLockReleased']);
    });

    it('the queueing is appended between the cancel’s read and its append: the cancel is refused (409)', async () => {
      const botId = await schedule();
      now = DUE;
      const queuedMeanwhile = () => ({
        id: randomUUID(),
        type: 'BotCreated',
        data: { bot_id: botId, team_id: teamId, meeting_url: MEETING, platform: 'mt', bot_name: 'Later', extra: null, config: defaultBotConfig(), created_by: null, created_at: now.toISOString() },
      });
      const racing = depsAt(new CompetingAppendStore(files.open(file), botStreamName(botId), queuedMeanwhile), () => now);
      const cancelled = await cancelScheduledBot(racing, botId);
      assert.ok(E.isLeft(cancelled));
      assert.equal(cancelled.left.code, 'BOT_STATUS');
      assert.deepEqual(await eventTypes(botStreamName(botId)), ['BotScheduled', 'BotCreated']);
    });

    it('50 times at once, two processes with jittered appends: one winner each time, nothing left behind by the loser', async function () {
      this.timeout(60_000);
      let cancels = 0;
      for (let i = 0; i < 50; i++) {
        const botId = await schedule();
        now = DUE;
        const scheduler = depsAt(new JitteryStore(files.open(file)), () => now);
        const api = depsAt(new JitteryStore(files.open(file)), () => now);
        const [queued, cancelled] = await Promise.all([queueScheduledBot(scheduler, botId), cancelScheduledBot(api, botId)]);
        const events = await eventTypes(botStreamName(botId));
        if (E.isRight(cancelled)) {
          cancels += 1;
          assert.equal(queued, 'not_scheduled', `run ${i}`);
          assert.deepEqual(events, ['BotScheduled', 'BotFailed'], `run ${i}`);
          const ledger = await ledgerOf(botId);
          assert.ok(ledger.length === 0 || ledger.at(-1)?.[0] === 'TokensReleased', `run ${i}: ${JSON.stringify(ledger)}`);
        } else {
          assert.equal(queued, 'queued', `run ${i}`);
          assert.equal(cancelled.left.code, 'BOT_STATUS');
          assert.deepEqual(events, ['BotScheduled', 'BotCreated'], `run ${i}`);
          assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null]], `run ${i}`);
        }
        now = new Date(T0);
      }
      const open = await openReservations();
      assert.equal(open.length, 50 - cancels, 'exactly the queued bots hold a reservation');
    });
  });

  describe('a queueing cut short', () => {
    it('the bot append fails: registration and reservation go back, and the next try queues it', async () => {
      const botId = await schedule();
      now = DUE;
      const failing = depsAt(new FailingBotAppendStore(files.open(file), false), () => now);
      await assert.rejects(queueScheduledBot(failing, botId), /connection reset/);
      assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null], ['TokensReleased', 'creation_aborted']]);
      assert.deepEqual(await lockOf(botId), ['MeetingLocked', 'MeetingLockReleased']);
      assert.equal(await queueScheduledBot(deps, botId), 'queued');
      assert.deepEqual(await eventTypes(botStreamName(botId)), ['BotScheduled', 'BotCreated']);
    });

    const crashAfterRegistration = async (botId: string) => {
      const reserved = await handleTeamCommand(deps, teamId, { type: 'ReserveTokensForBot', bot_id: botId, now: now.toISOString() });
      assert.ok(E.isRight(reserved));
      const registered = await handleCommand(deps.eventStore, meetingLockStreamFor(teamId, MEETING), meetingLockDecider, MeetingLockEvent, {
        type: 'RegisterBotForMeeting', team_id: teamId, meeting_url: MEETING, bot_id: botId, allow_multiple_bots: true, now: now.toISOString(),
      });
      assert.ok(E.isRight(registered));
    };

    it('a crash after the reservation and registration: the restarted scheduler finishes it with what was taken', async () => {
      const botId = await schedule();
      now = DUE;
      await crashAfterRegistration(botId);
      now = new Date(Date.parse(JOIN_AT) + 60_000);
      assert.equal(await queueScheduledBot(deps, botId), 'queued');
      assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null]], 'one reservation, not two');
      assert.deepEqual(await lockOf(botId), ['MeetingLocked']);
    });

    it('the same crash, back more than 5 minutes late: what was taken goes back and the bot fails SCHEDULED_TIME_MISSED', async () => {
      const botId = await schedule();
      now = DUE;
      await crashAfterRegistration(botId);
      now = new Date(Date.parse(JOIN_AT) + 6 * 60_000);
      assert.equal(await queueScheduledBot(deps, botId), 'refused');
      assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null], ['TokensReleased', 'creation_aborted']]);
      assert.deepEqual(await lockOf(botId), ['MeetingLocked', 'MeetingLockReleased']);
      const bot = await loadBot(deps, botId);
      assert.equal(bot.kind === 'present' && bot.status, 'failed');
    });

    it('a crash after its key claim, back more than 5 minutes late: the claim goes back with the rest', async () => {
      const botId = await schedule(deps, true, 'weekly-sync');
      now = DUE;
      await crashAfterRegistration(botId);
      assert.ok(E.isRight(await claimDeduplicationKey(deps, { team_id: teamId, deduplication_key: 'weekly-sync', bot_id: botId })));
      now = new Date(Date.parse(JOIN_AT) + 6 * 60_000);
      assert.equal(await queueScheduledBot(deps, botId), 'refused');
      assert.deepEqual(await keyClaimsOf('weekly-sync'), [['DeduplicationKeyClaimed', botId], ['DeduplicationKeyReleased', botId]]);
      assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null], ['TokensReleased', 'creation_aborted']]);
    });

    it('the orphan reconciler leaves a scheduled bot’s reservation to the scheduler, and releases it once the bot ended unqueued', async () => {
      const { log } = recordingLogger();
      const botId = await schedule();
      now = DUE;
      await crashAfterRegistration(botId);
      now = new Date(DUE.getTime() + 60 * 60_000); // long past the grace period
      const reconciler = releaseOrphanReservations({ ...deps, log }, 50);
      const runner = new SubscriberRunner(deps.eventStore, new SqliteCheckpointStore(':memory:'), reconciler, log);
      await runner.start();
      try {
        await new Promise((r) => setTimeout(r, 300));
        assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null]], 'still the scheduler’s: not an orphan');
        // Cancelled before the scheduler came back: nobody will queue it, so the reservation is an orphan now.
        assert.ok(E.isRight(await cancelScheduledBot(deps, botId)));
        await waitFor(async () => (await ledgerOf(botId)).length === 2, 'the release');
        assert.deepEqual(await ledgerOf(botId), [['TokensReserved', null], ['TokensReleased', 'creation_aborted']]);
        assert.deepEqual(await lockOf(botId), ['MeetingLocked', 'MeetingLockReleased']);
      } finally {
        await runner.stop();
        reconciler.stop();
      }
    });
  });
});
