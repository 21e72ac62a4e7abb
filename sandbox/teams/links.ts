/**
 * A Teams replica meeting's links, in the shapes of research note 3.1, all derived from the sandbox's
 * meeting id: the thread `19:meeting_<id>@thread.v2` of meetup-join links (with a `context` of tenant
 * and organizer ids), a short link `/meet/<13 digits>?p=<passcode>` on each host, and the
 * light-meetings link whose `coords` is base64 JSON {conversationId, tenantId, messageId,
 * organizerId}. Every form of every meeting is served; the derived ids are stable hashes of the id.
 */
import { createHash } from 'node:crypto';
import type { TeamsLinkForm } from './settings';

export const TEAMS_HOST = 'teams.microsoft.com';
export const LIVE_HOST = 'teams.live.com';
export const CLOUD_HOST = 'teams.cloud.microsoft';
export const LOGIN_HOST = 'login.microsoftonline.com';
/** Teams' product site (a block or an ending may send the page there) */
export const PRODUCT_HOST = 'www.microsoft.com';
export const PRODUCT_PATH = '/en-us/microsoft-teams/join-a-meeting';

const digest = (what: string, meetingId: string): Buffer => createHash('sha256').update(`${what}:${meetingId}`).digest();
const guid = (bytes: Buffer): string => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
/** percent-encoding with lower-case hex, as Teams writes its links */
const encode = (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());

export const threadOf = (meetingId: string): string => `19:meeting_${meetingId}@thread.v2`;
export const meetingIdOfThread = (thread: string): string | null => /^19:meeting_([A-Za-z0-9_-]{1,128})@thread\.v2$/.exec(thread)?.[1] ?? null;

export const tenantOf = (meetingId: string): string => guid(digest('tenant', meetingId));
export const organizerOf = (meetingId: string): string => guid(digest('organizer', meetingId));
export const contextOf = (meetingId: string): string => JSON.stringify({ Tid: tenantOf(meetingId), Oid: organizerOf(meetingId) });

/** the short link's 13 digits (no leading zero) */
export const shortIdOf = (meetingId: string): string => String(1_000_000_000_000n + (digest('short', meetingId).readBigUInt64BE(0) % 9_000_000_000_000n));
export const passcodeOf = (meetingId: string): string => digest('passcode', meetingId).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 6);

export const coordsOf = (meetingId: string): string =>
  Buffer.from(JSON.stringify({ conversationId: threadOf(meetingId), tenantId: tenantOf(meetingId), messageId: '0', organizerId: organizerOf(meetingId) })).toString('base64');

export const meetupJoinPath = (meetingId: string): string => `/l/meetup-join/${encode(threadOf(meetingId))}/0?context=${encode(contextOf(meetingId))}`;
export const lightMeetingPath = (meetingId: string): string => `/light-meetings/launch?anon=true&lightExperience=true&coords=${encode(coordsOf(meetingId))}`;
/** the web client's anonymous join (where the launcher continues) */
export const webClientPath = (meetingId: string): string => `/v2/?meetingjoin=true#/l/meetup-join/${encode(threadOf(meetingId))}/0?context=${encode(contextOf(meetingId))}&anon=true`;

export const teamsMeetingUrl = (meetingId: string, form: TeamsLinkForm): string => {
  const short = `/meet/${shortIdOf(meetingId)}?p=${passcodeOf(meetingId)}`;
  switch (form) {
    case 'meetup_join':
      return `https://${TEAMS_HOST}${meetupJoinPath(meetingId)}`;
    case 'meet':
      return `https://${TEAMS_HOST}${short}`;
    case 'live':
      return `https://${LIVE_HOST}${short}`;
    case 'cloud':
      return `https://${CLOUD_HOST}${short}`;
    case 'light':
      return `https://${TEAMS_HOST}${lightMeetingPath(meetingId)}`;
  }
};

/** The sign-in page a guest is sent to, coming back to `returnTo`. */
export const loginUrl = (returnTo: string): string =>
  `https://${LOGIN_HOST}/common/oauth2/authorize?redirect_uri=${encodeURIComponent(returnTo)}`;
