import { meetingLockDecider, type RegisterBotForMeeting, type ReleaseBotRegistration } from '../../src/domain/meeting-lock/meeting-lock-decider';
import { MeetingLockEvent } from '../../src/domain/meeting-lock/meeting-lock-events';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(meetingLockDecider, MeetingLockEvent);

const TEAM = 'team-0001';
const URL = 'https://vc.localhost/j/123456789';
const T0 = '2025-03-03T09:00:00.000Z';

const register = (bot_id: string, allow_multiple_bots: boolean, now: string): RegisterBotForMeeting => ({
  type: 'RegisterBotForMeeting',
  team_id: TEAM,
  meeting_url: URL,
  bot_id,
  allow_multiple_bots,
  now,
});
const locked = (bot_id: string, allow_multiple_bots: boolean, when: string): MeetingLockEvent => ({
  type: 'MeetingLocked',
  data: { team_id: TEAM, meeting_url: URL, bot_id, allow_multiple_bots, at: when },
});

const releaseCmd = (bot_id: string, now: string): ReleaseBotRegistration => ({ type: 'ReleaseBotRegistration', bot_id, reason: 'creation_aborted', now });
const lockReleased = (bot_id: string, when: string): MeetingLockEvent => ({
  type: 'MeetingLockReleased',
  data: { team_id: TEAM, meeting_url: URL, bot_id, reason: 'creation_aborted', at: when },
});

describe('meeting lock decider (deduplication of bots for one meeting)', () => {
  describe('the first bot for a meeting registers', () => {
    it('an exclusive bot', () => {
      spec.given([]).when(register('bot-1', false, T0)).then([locked('bot-1', false, T0)]);
    });
    it('a non-exclusive bot', () => {
      spec.given([]).when(register('bot-1', true, T0)).then([locked('bot-1', true, T0)]);
    });
  });

  describe('an exclusive bot (allow_multiple_bots false) is refused within 5 minutes of another bot', () => {
    it('1 s after the first -> BOT_ALREADY_EXISTS naming the existing bot', () => {
      spec.given([locked('bot-1', false, T0)]).when(register('bot-2', false, at(T0, { s: 1 }))).thenRejects({
        code: 'BOT_ALREADY_EXISTS',
        existing_bot_id: 'bot-1',
        message: 'A bot for this meeting was created less than 5 minutes ago',
      });
    });

    it('1 ms before the 5 minutes are up -> still refused', () => {
      spec.given([locked('bot-1', false, T0)]).when(register('bot-2', false, at(T0, { m: 4, s: 59, ms: 999 }))).thenRejects({
        code: 'BOT_ALREADY_EXISTS',
        existing_bot_id: 'bot-1',
      });
    });

    it('at exactly 5 minutes -> allowed', () => {
      const when = at(T0, { m: 5 });
      spec.given([locked('bot-1', false, T0)]).when(register('bot-2', false, when)).then([locked('bot-2', false, when)]);
    });

    it('after 5 minutes -> allowed', () => {
      const when = at(T0, { h: 1 });
      spec.given([locked('bot-1', false, T0)]).when(register('bot-2', false, when)).then([locked('bot-2', false, when)]);
    });

    it('each bot has its own window: one older than 5 minutes no longer blocks, a newer one does and is named', () => {
      const history = [locked('bot-1', false, T0), locked('bot-2', false, at(T0, { m: 6 }))];
      spec.given(history).when(register('bot-3', false, at(T0, { m: 8 }))).thenRejects({
        code: 'BOT_ALREADY_EXISTS',
        existing_bot_id: 'bot-2',
      });
    });

    it('a bot stamped after now (a clock ahead of ours, or the winner of the race this command retries) blocks too', () => {
      spec.given([locked('bot-1', false, at(T0, { ms: 500 }))]).when(register('bot-2', false, T0)).thenRejects({
        code: 'BOT_ALREADY_EXISTS',
        existing_bot_id: 'bot-1',
      });
    });

    it('an exclusive bot after a non-exclusive one within the window is refused', () => {
      spec.given([locked('bot-1', true, T0)]).when(register('bot-2', false, at(T0, { m: 2 }))).thenRejects({
        code: 'BOT_ALREADY_EXISTS',
        existing_bot_id: 'bot-1',
      });
    });
  });

  describe('a non-exclusive bot (allow_multiple_bots true) is always registered', () => {
    it('even 1 s after an exclusive bot', () => {
      const when = at(T0, { s: 1 });
      spec.given([locked('bot-1', false, T0)]).when(register('bot-2', true, when)).then([locked('bot-2', true, when)]);
    });

    it('even alongside several bots within the window', () => {
      const when = at(T0, { m: 1 });
      spec.given([locked('bot-1', true, T0), locked('bot-2', true, at(T0, { s: 30 }))])
        .when(register('bot-3', true, when))
        .then([locked('bot-3', true, when)]);
    });
  });

  describe('registering the same bot twice is a retry', () => {
    it('the same bot id again is nothing', () => {
      spec.given([locked('bot-1', false, T0)]).when(register('bot-1', false, at(T0, { s: 10 }))).thenNothing();
    });

    it('even when another bot would make it refused (a retry is not a new bot)', () => {
      spec.given([locked('bot-1', true, T0), locked('bot-2', true, at(T0, { s: 1 }))])
        .when(register('bot-2', false, at(T0, { s: 2 })))
        .thenNothing();
    });

    it('and after the window', () => {
      spec.given([locked('bot-1', false, T0)]).when(register('bot-1', false, at(T0, { h: 2 }))).thenNothing();
    });
  });
});

describe('the lock only remembers the deduplication window', () => {
  it('forgets a bot registered more than 5 minutes before the newest one', () => {
    const sixMinutesLater = at(T0, { m: 6 });
    // bot-1 left the window when bot-2 registered, so bot-1 registering again is news, not a retry.
    spec
      .given([locked('bot-1', true, T0), locked('bot-2', true, sixMinutesLater)])
      .when(register('bot-1', true, at(T0, { m: 7 })))
      .then([locked('bot-1', true, at(T0, { m: 7 }))]);
  });

  it('still refuses an exclusive bot while a recent one is in the window', () => {
    spec
      .given([locked('bot-1', true, T0), locked('bot-2', true, at(T0, { m: 6 }))])
      .when(register('bot-3', false, at(T0, { m: 7 })))
      .thenRejects({ code: 'BOT_ALREADY_EXISTS', existing_bot_id: 'bot-2' });
  });
});

describe('a registration whose bot was never created is taken back (ReleaseBotRegistration)', () => {
  it('releasing a registered bot -> MeetingLockReleased with the registration\'s team and URL', () => {
    spec.given([locked('bot-1', false, T0)]).when(releaseCmd('bot-1', at(T0, { s: 2 }))).then([lockReleased('bot-1', at(T0, { s: 2 }))]);
  });

  it('after the release, an exclusive bot for the same meeting is registered at once (no phantom BOT_ALREADY_EXISTS)', () => {
    const when = at(T0, { s: 3 });
    spec.given([locked('bot-1', false, T0), lockReleased('bot-1', at(T0, { s: 2 }))]).when(register('bot-2', false, when)).then([locked('bot-2', false, when)]);
  });

  it('only the released bot leaves the window: another recent bot still blocks and is named', () => {
    spec
      .given([locked('bot-1', true, T0), locked('bot-2', true, at(T0, { s: 1 })), lockReleased('bot-2', at(T0, { s: 2 }))])
      .when(register('bot-3', false, at(T0, { s: 3 })))
      .thenRejects({ code: 'BOT_ALREADY_EXISTS', existing_bot_id: 'bot-1' });
  });

  it('releasing a bot the lock never held is nothing', () => {
    spec.given([]).when(releaseCmd('bot-9', T0)).thenNothing();
    spec.given([locked('bot-1', false, T0)]).when(releaseCmd('bot-9', at(T0, { s: 1 }))).thenNothing();
  });

  it('releasing an already released bot is nothing', () => {
    spec.given([locked('bot-1', false, T0), lockReleased('bot-1', at(T0, { s: 2 }))]).when(releaseCmd('bot-1', at(T0, { s: 5 }))).thenNothing();
  });

  it('releasing a bot that has left the window (it blocks nobody any more) is nothing', () => {
    spec.given([locked('bot-1', true, T0), locked('bot-2', true, at(T0, { m: 6 }))]).when(releaseCmd('bot-1', at(T0, { m: 7 }))).thenNothing();
  });
});
