import * as t from 'io-ts';
import { eventCodec, IsoInstant } from '../codec-helpers';

/** Every bot created for a meeting registers here, so that a later exclusive bot can see it. */
export const MeetingLocked = eventCodec('MeetingLocked', {
  team_id: t.string,
  meeting_url: t.string,
  bot_id: t.string,
  allow_multiple_bots: t.boolean,
  at: IsoInstant,
});

export const LockReleaseReason = t.keyof({ creation_aborted: null });
export type LockReleaseReason = t.TypeOf<typeof LockReleaseReason>;

/**
 * Takes back a registration whose bot was never created (its creation failed or the process died
 * before the bot's stream was written), so that it no longer blocks an exclusive bot for the meeting.
 */
export const MeetingLockReleased = eventCodec('MeetingLockReleased', {
  team_id: t.string,
  meeting_url: t.string,
  bot_id: t.string,
  reason: LockReleaseReason,
  at: IsoInstant,
});

export const MeetingLockEvent = t.union([MeetingLocked, MeetingLockReleased]);
export type MeetingLockEvent = t.TypeOf<typeof MeetingLockEvent>;

/** `urlHash` is a hash of the normalised meeting URL, computed outside the domain. */
export const meetingLockStreamName = (teamId: string, urlHash: string): string => `meeting-lock-${teamId}-${urlHash}`;
