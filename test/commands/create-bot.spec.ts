import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import * as E from 'fp-ts/Either';
import type { AppendResult, ExpectedRevision, NewEvent, StreamName } from '../../src/adapters/event-store/port';
import { createBot, meetingLockStreamFor, releaseMeetingRegistration, type NewBot } from '../../src/commands/create-bot';
import { handleCommand } from '../../src/commands/handle-command';
import { handleTeamCommand, loadTeam } from '../../src/commands/team-commands';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { meetingLockDecider } from '../../src/domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent } from '../../src/domain/meeting-lock/meeting-lock-events';
import { FailingAppendStore, FailingBotAppendStore, T0, createTeam, depsOver } from './support';
import { sqliteFiles } from '../support/sqlite-files';

const URL = 'https://vc.localhost/j/555666777';
const exclusiveBot = (team_id: string, meeting_url = URL): NewBot => ({
  team_id,
  meeting_url,
  platform: 'vc',
  bot_name: 'Notetaker',
  extra: null,
  config: { ...defaultBotConfig(), allow_multiple_bots: false },
  created_by: null,
});

describe('create bot: a creation that stops after locking the meeting leaves no phantom lock', () => {
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(async () => {
    await files.cleanup();
  });

  it('BotCreated cannot be appended: the registration is taken back, then the reservation, and the next exclusive bot is created at once', async () => {
    const file = files.newFile();
    const deps = depsOver(files.open(file));
    const team = await createTeam(deps);
    const failing = depsOver(new FailingBotAppendStore(files.open(file), false));

    await assert.rejects(createBot(failing, exclusiveBot(team)), /connection reset/);

    const lock = await deps.eventStore.readStream(meetingLockStreamFor(team, URL));
    assert.deepEqual(lock.map((e) => e.type), ['MeetingLocked', 'MeetingLockReleased']);
    assert.equal(lock[1]!.data.bot_id, lock[0]!.data.bot_id);
    assert.equal(lock[1]!.data.reason, 'creation_aborted');
    const ledger = await loadTeam(depsOver(files.open(file)), team);
    assert.ok(ledger.kind === 'present' && ledger.reservations.size === 0 && ledger.recentCreations.length === 0);

    // Before the fix: 409 BOT_ALREADY_EXISTS naming a bot that does not exist, for 5 minutes.
    const next = await createBot(deps, exclusiveBot(team, `${URL}/`));
    assert.ok(E.isRight(next), JSON.stringify(E.isLeft(next) ? next.left : null));
  });

  it("BotCreated was written but its answer was lost: the bot exists, so neither its lock nor its reservation is taken back", async () => {
    const file = files.newFile();
    const deps = depsOver(files.open(file));
    const team = await createTeam(deps);
    const lostAnswer = depsOver(new FailingBotAppendStore(files.open(file), true));

    await assert.rejects(createBot(lostAnswer, exclusiveBot(team)), /connection reset/);

    const lock = await deps.eventStore.readStream(meetingLockStreamFor(team, URL));
    assert.deepEqual(lock.map((e) => e.type), ['MeetingLocked']);
    const botId = String(lock[0]!.data.bot_id);
    assert.equal((await deps.eventStore.readStream(botStreamName(botId)))[0]?.type, 'BotCreated');
    const ledger = await loadTeam(depsOver(files.open(file)), team);
    assert.ok(ledger.kind === 'present' && ledger.reservations.has(botId));
    const duplicate = await createBot(deps, exclusiveBot(team));
    assert.ok(E.isLeft(duplicate) && duplicate.left.code === 'BOT_ALREADY_EXISTS');
  });

  it("the registration was written but its answer was lost: it is taken back all the same, then the reservation", async () => {
    const file = files.newFile();
    const deps = depsOver(files.open(file));
    const team = await createTeam(deps);
    const lostAnswer = depsOver(new FailingAppendStore(files.open(file), 'meeting-lock-', true));

    await assert.rejects(createBot(lostAnswer, exclusiveBot(team)), /connection reset/);

    const lock = await deps.eventStore.readStream(meetingLockStreamFor(team, URL));
    assert.deepEqual(lock.map((e) => e.type), ['MeetingLocked', 'MeetingLockReleased']);
    const ledger = await loadTeam(depsOver(files.open(file)), team);
    assert.ok(ledger.kind === 'present' && ledger.reservations.size === 0);
    assert.ok(E.isRight(await createBot(deps, exclusiveBot(team))));
  });

  it('a refused duplicate releases its own reservation and leaves the existing lock alone', async () => {
    const deps = depsOver(files.open(files.newFile()));
    const team = await createTeam(deps);
    const first = await createBot(deps, exclusiveBot(team));
    assert.ok(E.isRight(first));
    const second = await createBot(deps, exclusiveBot(team));
    assert.ok(E.isLeft(second) && second.left.code === 'BOT_ALREADY_EXISTS');
    const lock = await deps.eventStore.readStream(meetingLockStreamFor(team, URL));
    assert.deepEqual(lock.map((e) => e.type), ['MeetingLocked']);
    const ledger = await loadTeam(deps, team);
    assert.ok(ledger.kind === 'present');
    assert.deepEqual([...ledger.reservations.keys()], [first.right.bot_id]);
  });

  it('after a crash between the lock and the bot, releaseMeetingRegistration (what the reconciler calls) frees the meeting; twice is nothing', async () => {
    const deps = depsOver(files.open(files.newFile()));
    const team = await createTeam(deps);
    const orphan = 'a0000000-0000-4000-8000-0000000000aa';
    // What createBot writes before the bot, and nothing after: the state a crash leaves.
    assert.ok(E.isRight(await handleTeamCommand(deps, team, { type: 'ReserveTokensForBot', bot_id: orphan, now: T0 })));
    const stream = meetingLockStreamFor(team, URL);
    assert.ok(E.isRight(await handleCommand(deps.eventStore, stream, meetingLockDecider, MeetingLockEvent, {
      type: 'RegisterBotForMeeting', team_id: team, meeting_url: URL, bot_id: orphan, allow_multiple_bots: false, now: T0,
    })));
    const blocked = await createBot(deps, exclusiveBot(team));
    assert.ok(E.isLeft(blocked) && blocked.left.code === 'BOT_ALREADY_EXISTS');

    // The reconciler has the orphan's MeetingLocked event (team_id, meeting_url, bot_id) at hand.
    const [locked] = await deps.eventStore.readStream(stream);
    const registration = { team_id: String(locked!.data.team_id), meeting_url: String(locked!.data.meeting_url), bot_id: String(locked!.data.bot_id) };
    const released = await releaseMeetingRegistration(deps, registration);
    assert.ok(E.isRight(released) && released.right.events.length === 1);
    const again = await releaseMeetingRegistration(deps, registration);
    assert.ok(E.isRight(again) && again.right.events.length === 0 && again.right.position === null);

    const freed = await createBot(deps, exclusiveBot(team));
    assert.ok(E.isRight(freed));
  });
});
