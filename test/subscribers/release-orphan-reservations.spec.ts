import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../src/adapters/event-store/port';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import type { CommandDeps } from '../../src/commands/command-deps';
import { handleCommand } from '../../src/commands/handle-command';
import { claimDeduplicationKey, deduplicationKeyStreamFor } from '../../src/commands/claim-deduplication-key';
import { meetingLockStreamFor } from '../../src/commands/create-bot';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { meetingLockDecider } from '../../src/domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent } from '../../src/domain/meeting-lock/meeting-lock-events';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { teamStreamName } from '../../src/domain/team/team-events';
import { releaseOrphanReservations } from '../../src/subscribers/release-orphan-reservations';
import { SubscriberRunner, type Subscriber } from '../../src/subscribers/subscriber-runner';
import { recordingLogger, temporarySqliteStore, waitFor } from './support';

const CHECKPOINT = 'subscriber:release-orphan-reservations';
const GRACE_MS = 100;

/** Runs the reconciler over the log until it has released the team's open reservation, then stops it. */
const reconcileUntilReleased = async (deps: CommandDeps, teamId: string) => {
  const { log } = recordingLogger();
  const reconciler = releaseOrphanReservations({ ...deps, log }, GRACE_MS);
  const runner = new SubscriberRunner(deps.eventStore, new SqliteCheckpointStore(':memory:'), reconciler, log);
  await runner.start();
  try {
    await waitFor(async () => (await deps.eventStore.readStream(teamStreamName(teamId))).some((e) => e.type === 'TokensReleased'), 'the release');
  } finally {
    await runner.stop();
    reconciler.stop();
  }
};

describe('orphan reservations across a restart (checkpoints that persist, as with MongoDB)', () => {
  let sqlite: ReturnType<typeof temporarySqliteStore>;
  beforeEach(() => {
    sqlite = temporarySqliteStore();
  });
  afterEach(() => sqlite.dispose());

  it('releases a reservation left without its bot exactly once, and never one whose bot was created', async () => {
    const { log } = recordingLogger();
    const eventStore = sqlite.store;
    // Checkpoints survive the "restart": both runs share this read store.
    const checkpoints = new SqliteCheckpointStore(':memory:');
    let now = new Date('2026-03-01T12:00:00.000Z');
    const deps: CommandDeps = { eventStore, clock: () => now, newId: () => randomUUID() };
    const teamId = randomUUID();
    const orphan = randomUUID();
    const created = randomUUID();
    const team = async (command: Parameters<typeof handleTeamCommand>[2]) => {
      const result = await handleTeamCommand(deps, teamId, command);
      assert.equal(result._tag, 'Right');
    };
    await team({ type: 'CreateTeam', team_id: teamId, name: 'orphans', daily_bot_cap: 10, rate_limit_per_second: 10, initial_tokens: 10_000, now: now.toISOString() });
    await team({ type: 'ReserveTokensForBot', bot_id: orphan, now: now.toISOString() });
    await team({ type: 'ReserveTokensForBot', bot_id: created, now: now.toISOString() });
    await eventStore.appendToStream(botStreamName(created), [{
      id: randomUUID(),
      type: 'BotCreated',
      data: { bot_id: created, team_id: teamId, meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: 'Kept', extra: null, config: {}, created_at: now.toISOString() },
    }], 'no_stream');
    const all = await eventStore.readAll();
    const last = all[all.length - 1].position;
    const reservedOrphan = all.find((e) => e.type === 'TokensReserved' && e.data.bot_id === orphan)!;

    // Run 1: the reconciler handles everything, but the clock stays within the grace period (the crash).
    const run = (handled: RecordedEvent[]) => {
      const reconciler = releaseOrphanReservations({ ...deps, log }, GRACE_MS);
      const observed: Subscriber = {
        name: reconciler.name,
        handle: async (event, recorded) => {
          await reconciler.handle(event, recorded);
          handled.push(recorded);
        },
        replayFrom: () => reconciler.replayFrom?.(),
      };
      return { reconciler, runner: new SubscriberRunner(eventStore, checkpoints, observed, log) };
    };
    const firstHandled: RecordedEvent[] = [];
    const first = run(firstHandled);
    await first.runner.start();
    await waitFor(() => firstHandled.some((e) => e.position === last), 'the first run to handle every event');
    await first.runner.stop();
    first.reconciler.stop();
    const held = await checkpoints.loadCheckpoint(CHECKPOINT);
    assert.ok(held !== null && held < reservedOrphan.position, `the checkpoint (${held}) must stay before the pending reservation (${reservedOrphan.position})`);

    // Run 2, after the grace period: it must find the orphan again although run 1 handled its reservation.
    now = new Date(now.getTime() + 60 * 60 * 1000);
    const secondHandled: RecordedEvent[] = [];
    const second = run(secondHandled);
    await second.runner.start();
    let releasedAt: bigint | undefined;
    try {
      await waitFor(async () => {
        releasedAt = (await eventStore.readStream(teamStreamName(teamId))).find((e) => e.type === 'TokensReleased')?.position;
        return releasedAt !== undefined;
      }, 'the orphan reservation to be released');
      // Once the release is handled nothing is pending: the checkpoint moves on and no sweep has anything left.
      await waitFor(async () => ((await checkpoints.loadCheckpoint(CHECKPOINT)) ?? -1n) >= releasedAt!, 'the checkpoint to pass the release');
    } finally {
      await second.runner.stop();
      second.reconciler.stop();
    }

    const releases = (await eventStore.readStream(teamStreamName(teamId))).filter((e) => e.type === 'TokensReleased');
    assert.deepEqual(releases.map((e) => [e.data.bot_id, e.data.reason]), [[orphan, 'creation_aborted']]);
    const ledger = await loadTeam(deps, teamId);
    assert.equal(ledger.kind, 'present');
    if (ledger.kind === 'present') assert.deepEqual([...ledger.reservations.keys()], [created]);
  });

  /** A team whose one reservation has no bot (a creation that crashed), and the clock the commands read. */
  const teamWithAnOrphan = async () => {
    let now = new Date('2026-03-01T12:00:00.000Z');
    const deps: CommandDeps = { eventStore: sqlite.store, clock: () => now, newId: () => randomUUID() };
    const teamId = randomUUID();
    const orphan = randomUUID();
    await handleTeamCommand(deps, teamId, { type: 'CreateTeam', team_id: teamId, name: 'orphans', daily_bot_cap: 10, rate_limit_per_second: 10, initial_tokens: 10_000, now: now.toISOString() });
    await handleTeamCommand(deps, teamId, { type: 'ReserveTokensForBot', bot_id: orphan, now: now.toISOString() });
    return { deps, teamId, orphan, nowIso: () => now.toISOString(), pass: (ms: number) => (now = new Date(now.getTime() + ms)) };
  };

  it('a crash between the meeting registration and the bot: the registration is taken back too, then the reservation', async () => {
    const { deps, teamId, orphan, nowIso, pass } = await teamWithAnOrphan();
    const meetingUrl = 'https://meet.google.com/abc-defg-hij';
    const register = (bot_id: string) =>
      handleCommand(deps.eventStore, meetingLockStreamFor(teamId, meetingUrl), meetingLockDecider, MeetingLockEvent, {
        type: 'RegisterBotForMeeting', team_id: teamId, meeting_url: meetingUrl, bot_id, allow_multiple_bots: false, now: nowIso(),
      });
    assert.equal((await register(orphan))._tag, 'Right');
    assert.equal((await register(randomUUID()))._tag, 'Left', 'the orphan blocks an exclusive bot for the meeting');

    pass(60 * 1000); // still within the deduplication window, past the grace period
    await reconcileUntilReleased(deps, teamId);
    const lock = await deps.eventStore.readStream(meetingLockStreamFor(teamId, meetingUrl));
    assert.deepEqual(lock.map((e) => [e.type, e.data.bot_id]), [['MeetingLocked', orphan], ['MeetingLockReleased', orphan]]);
    assert.equal((await register(randomUUID()))._tag, 'Right', 'the meeting is free for an exclusive bot again');
  });

  it('a crash between the deduplication key claim and the bot: the claim is taken back too, and the key is free again', async () => {
    const { deps, teamId, orphan, pass } = await teamWithAnOrphan();
    const key = 'weekly-sync';
    assert.equal((await claimDeduplicationKey(deps, { team_id: teamId, deduplication_key: key, bot_id: orphan }))._tag, 'Right');
    assert.equal((await claimDeduplicationKey(deps, { team_id: teamId, deduplication_key: key, bot_id: randomUUID() }))._tag, 'Left', 'the orphan holds the key');

    pass(60 * 1000);
    await reconcileUntilReleased(deps, teamId);
    const stream = await deps.eventStore.readStream(deduplicationKeyStreamFor(teamId, key));
    assert.deepEqual(stream.map((e) => [e.type, e.data.bot_id]), [['DeduplicationKeyClaimed', orphan], ['DeduplicationKeyReleased', orphan]]);
    assert.equal((await claimDeduplicationKey(deps, { team_id: teamId, deduplication_key: key, bot_id: randomUUID() }))._tag, 'Right');
  });
});
