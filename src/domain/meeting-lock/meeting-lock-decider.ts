import * as E from 'fp-ts/Either';
import type { Decider } from '../decider';
import { toMillis } from '../codec-helpers';
import type { LockReleaseReason, MeetingLockEvent } from './meeting-lock-events';
import { TimeWindow } from '../persistent/time-window';

export const DEDUPLICATION_WINDOW_MS = 5 * 60 * 1000;

export interface RegisterBotForMeeting {
  readonly type: 'RegisterBotForMeeting';
  readonly team_id: string;
  readonly meeting_url: string;
  readonly bot_id: string;
  readonly allow_multiple_bots: boolean;
  readonly now: string;
}

/**
 * Takes back the registration of a bot that was never created. Idempotent: a bot this lock does not
 * hold (never registered, already released, or out of the window where it blocked nothing) is nothing.
 */
export interface ReleaseBotRegistration {
  readonly type: 'ReleaseBotRegistration';
  readonly bot_id: string;
  readonly reason: LockReleaseReason;
  readonly now: string;
}

export type MeetingLockCommand = RegisterBotForMeeting | ReleaseBotRegistration;

export interface MeetingLockRejection {
  readonly code: 'BOT_ALREADY_EXISTS';
  readonly message: string;
  readonly existing_bot_id: string;
}

interface RegisteredBot {
  readonly bot_id: string;
  readonly team_id: string;
  readonly meeting_url: string;
  readonly at_ms: number;
}

export interface MeetingLockState {
  /** the bots registered within the deduplication window, by time */
  readonly bots: TimeWindow<RegisteredBot>;
}

const initialState = (): MeetingLockState => ({ bots: TimeWindow.empty() });

const accept = (...events: MeetingLockEvent[]) => E.right<MeetingLockRejection, readonly MeetingLockEvent[]>(events);

const register = (command: RegisterBotForMeeting, state: MeetingLockState) => {
  if (state.bots.has(command.bot_id)) return accept();
  const nowMs = toMillis(command.now);
  // A bot stamped after `now` (a clock ahead of ours, or the winner of the race this command retries) blocks too.
  const recent = state.bots.firstAfter(nowMs - DEDUPLICATION_WINDOW_MS);
  if (!command.allow_multiple_bots && recent) {
    return E.left<MeetingLockRejection, readonly MeetingLockEvent[]>({
      code: 'BOT_ALREADY_EXISTS',
      message: 'A bot for this meeting was created less than 5 minutes ago',
      existing_bot_id: recent.bot_id,
    });
  }
  const { type: _type, now, ...data } = command;
  return accept({ type: 'MeetingLocked', data: { ...data, at: now } });
};

const release = (command: ReleaseBotRegistration, state: MeetingLockState) => {
  const held = state.bots.get(command.bot_id);
  if (!held) return accept();
  return accept({
    type: 'MeetingLockReleased',
    data: { team_id: held.team_id, meeting_url: held.meeting_url, bot_id: held.bot_id, reason: command.reason, at: command.now },
  });
};

const decide = (command: MeetingLockCommand, state: MeetingLockState) =>
  command.type === 'RegisterBotForMeeting' ? register(command, state) : release(command, state);

/** Only the window matters: a meeting used for months keeps a handful of bots in its state, not all of them. */
const evolve = (state: MeetingLockState, event: MeetingLockEvent): MeetingLockState => {
  switch (event.type) {
    case 'MeetingLocked': {
      const { bot_id, team_id, meeting_url } = event.data;
      const atMs = toMillis(event.data.at);
      return { bots: state.bots.forgetUpTo(atMs - DEDUPLICATION_WINDOW_MS).add({ bot_id, team_id, meeting_url, at_ms: atMs }) };
    }
    case 'MeetingLockReleased':
      // The bot never existed: it leaves the window at once and blocks nobody.
      return { bots: state.bots.remove(event.data.bot_id) };
  }
};

// No snapshot: its state holds meeting links, which the log keeps sealed with each bot's data key (issue 25);
// a snapshot would keep them in plain text after a bot's data is deleted. One link rarely has many bots.
export const meetingLockDecider: Decider<MeetingLockCommand, MeetingLockEvent, MeetingLockState, MeetingLockRejection> = {
  decide,
  evolve,
  initialState,
};
