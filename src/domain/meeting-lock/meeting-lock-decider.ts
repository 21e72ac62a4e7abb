import * as E from 'fp-ts/Either';
import type { Decider } from '../decider';
import { toMillis } from '../codec-helpers';
import type { MeetingLockEvent } from './meeting-lock-events';

export const DEDUPLICATION_WINDOW_MS = 5 * 60 * 1000;

export interface RegisterBotForMeeting {
  readonly type: 'RegisterBotForMeeting';
  readonly team_id: string;
  readonly meeting_url: string;
  readonly bot_id: string;
  readonly allow_multiple_bots: boolean;
  readonly now: string;
}
export type MeetingLockCommand = RegisterBotForMeeting;

export interface MeetingLockRejection {
  readonly code: 'BOT_ALREADY_EXISTS';
  readonly message: string;
  readonly existing_bot_id: string;
}

export interface MeetingLockState {
  readonly bots: readonly { readonly bot_id: string; readonly at_ms: number }[];
}

const initialState = (): MeetingLockState => ({ bots: [] });

const decide = (command: MeetingLockCommand, state: MeetingLockState) => {
  if (state.bots.some((b) => b.bot_id === command.bot_id)) return E.right<MeetingLockRejection, readonly MeetingLockEvent[]>([]);
  const nowMs = toMillis(command.now);
  // A bot stamped after `now` (a clock ahead of ours, or the winner of the race this command retries) blocks too.
  const recent = state.bots.find((b) => nowMs - b.at_ms < DEDUPLICATION_WINDOW_MS);
  if (!command.allow_multiple_bots && recent) {
    return E.left<MeetingLockRejection, readonly MeetingLockEvent[]>({
      code: 'BOT_ALREADY_EXISTS',
      message: 'A bot for this meeting was created less than 5 minutes ago',
      existing_bot_id: recent.bot_id,
    });
  }
  const { type: _type, now, ...data } = command;
  return E.right<MeetingLockRejection, readonly MeetingLockEvent[]>([{ type: 'MeetingLocked', data: { ...data, at: now } }]);
};

/** Only the window matters: a meeting used for months keeps a handful of bots in its state, not all of them. */
const evolve = (state: MeetingLockState, event: MeetingLockEvent): MeetingLockState => {
  const atMs = toMillis(event.data.at);
  return {
    bots: [...state.bots.filter((b) => b.at_ms > atMs - DEDUPLICATION_WINDOW_MS), { bot_id: event.data.bot_id, at_ms: atMs }],
  };
};

export const meetingLockDecider: Decider<MeetingLockCommand, MeetingLockEvent, MeetingLockState, MeetingLockRejection> = {
  decide,
  evolve,
  initialState,
};
