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

export const MeetingLockEvent = MeetingLocked;
export type MeetingLockEvent = t.TypeOf<typeof MeetingLockEvent>;

/** `urlHash` is a hash of the normalised meeting URL, computed outside the domain. */
export const meetingLockStreamName = (teamId: string, urlHash: string): string => `meeting-lock-${teamId}-${urlHash}`;
