/**
 * vc organisations and the Meeting SDK's sessions, as the meeting's state sees them: which organisation a
 * meeting belongs to by default, which user is in the call, and whose sessions end when an OBF token's user
 * leaves. Pure queries over the meeting (meeting-state.ts applies them; sdk-join.ts joins through them).
 */
import type { Meeting, Participant } from '../meeting-state';

/** The organisation of a meeting created without one. */
export const DEFAULT_ORGANISATION = 'sandbox';

/** The end reason of a participant whose OBF user left (the Meeting SDK's error 4019). */
export const AUTHORIZED_USER_LEFT = 'authorized_user_left';

/** How a Meeting SDK join enters: signed by an app, for a user (ZAK) or on a user's behalf (OBF), possibly as the host. */
export interface SdkEntry {
  readonly app: { readonly key: string; readonly name: string };
  readonly user_id: string | null;
  readonly authorized_by: string | null;
  /** started with the host's ZAK: the meeting starts, no waiting room */
  readonly as_host: boolean;
}

/** Whether the user is in the call now (an OBF token's user must be, for the join and for as long as the app stays). */
export const userInCall = (meeting: Meeting, userId: string): boolean => [...meeting.participants.values()].some((q) => q.user_id === userId && q.state === 'in_call');

/**
 * The user an OBF token was for is no longer in the meeting (left, removed, dropped): the platform ends the
 * session of every app that joined on that user's behalf, unless the user is still there on another device.
 * Those sessions, still waiting or in the call.
 */
export const sessionsEndedByDeparture = (meeting: Meeting, userId: string, isActive: (p: Participant) => boolean): Participant[] =>
  userInCall(meeting, userId) ? [] : [...meeting.participants.values()].filter((q) => q.authorized_by === userId && isActive(q));
