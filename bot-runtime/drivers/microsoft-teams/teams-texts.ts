/**
 * Microsoft Teams' words, as the open-source peers read them (docs/research/real-platforms.md,
 * section 3; the peer in brackets). Where sources disagree, every variant is kept. Compared
 * case-insensitively as substrings, with straight and curly apostrophes alike (in-page/state-scan.ts).
 */

/** The launcher's way into the web client (3.2 [ScreenApp, Vexa, MB]). */
export const launcherTexts = ['Continue on this browser', 'Join from browser', 'Join on this browser'];
export const launcherLabels = ['Join meeting from this browser', 'Continue on this browser', 'Join on this browser'];

/** The AV-confirm modal, before the pre-join or only after "Join now" (3.2 [Vexa #226, #467]). */
export const avConfirmQuestion = "Are you sure you don't want audio or video?";
export const avConfirmButton = 'Continue without audio or video';

/** The pre-join's join button names (3.2 [Attendee; ScreenApp's role=button names]). */
export const joinButtonTexts = ['Join now', 'Join', 'Ask to join', 'Join meeting'];

/** The audio choice: the bot must hear the meeting, so "Computer audio" (3.2 [Vexa]). */
export const computerAudio = 'Computer audio';

/** The host refused the request (3.3 [ScreenApp, MB; Attendee]). */
export const deniedTexts = [
  'Sorry, but you were denied access to the meeting',
  'Your request to join was declined',
  // [Vexa msteams/selectors.ts, 2026-07]
  'You were denied entry',
  'Entry denied',
  'Request denied',
  'Admission denied',
];

/** Out of the call (3.7 [Attendee, Vexa; ScreenApp]). "Call ended" is the ScreenApp phrase in a sentence, read outside names and chat. */
export const removedTexts = ["You've been removed from this meeting", 'Removed from the meeting', 'You have been removed from this meeting', 'Removed from meeting'];
/** [ScreenApp; Vexa's "Meeting ended"] */
export const endedTexts = ['the meeting has ended', 'this meeting has ended', 'call ended', 'Meeting ended'];
/** The call dropped on an encryption failure (3.7 [Attendee]): the platform let go of the bot. */
export const encryptionEndTexts = ['An encryption error occurred'];

/** Only signed-in users may join (3.2 [MB #157; Attendee's list]). */
export const signInTexts = [
  'We need to verify your info before you can join',
  'To join, sign in or use Teams on the web',
  'You need to be signed in to Teams to access this meeting',
  'Sign in to Teams to join, or contact the meeting organizer',
  'To join this Teams meeting, you need to be signed in to an account',
  'Due to org policy, you need to sign in or use Teams on the web to join this meeting',
  'External participants are not permitted to join before the event begins',
  // [Attendee teams_ui_methods.py, 2026-08]
  "If you're not signed in to a Teams (work or school) account, sign in and try joining again",
  'To join this meeting, sign in again or select another account',
];
/** Landing on a Microsoft login page is the sign-in wall too (3.1, 3.2 [Vexa msteams/auth-redirect.ts, MB]). */
export const signInHosts = ['login.microsoftonline.com', 'login.microsoft.com', 'login.live.com', 'login.windows.net', 'login.microsoftonline.us'];

/** Teams could not connect the guest; Attendee retries it (`we couldn't connect you`, teams_ui_methods.py): a failed join. */
export const connectFailedTexts = ["we couldn't connect you"];

/** The web client's own paths, on its hosts (3.1 [MB teamsMeetingUrl, Vexa auth-redirect TEAMS_HOST_SUFFIXES]): anything else is off the meeting. */
export const meetingPagePattern = String.raw`^https://teams\.(?:microsoft\.com|live\.com|cloud\.microsoft|microsoft\.us)/(?:v2/?|_|light-meetings/launch|l/meetup-join/|l/meeting/|meet/|dl/launcher/)`;
/** Teams' product site, where a block or the meeting's end can send a guest (Vexa TEAMS_OFF_MEETING_ORIGIN: neither the meeting nor a Teams host). */
export const productHost = 'www.microsoft.com';

/** The tenant's captcha for anonymous joiners (1.2, 3.2 [Attendee #741]): the platform will not let a bot in. */
export const captchaTexts = ["Verify you're a real person"];

/** A link that names no meeting (3.2 [Attendee]). */
export const badUrlTexts = ['Looks like the meeting URL is incorrect'];

/** The lobby (3.3 [Vexa, Attendee, MB #291]): "Hi, <name>. Someone will let you in when the meeting starts." among them. */
export const lobbyTexts = [
  'Someone will let you in shortly',
  'Someone will let you in soon',
  'Someone will let you in when the meeting starts',
  'Waiting for someone to let you in',
  'Waiting to be admitted',
  // [Vexa msteams/selectors.ts, 2026-07]
  "You're in the lobby",
  'Please wait until someone admits you',
  'Wait for someone to admit you',
  'Your request to join has been sent',
];

/** Suffixes Teams puts after anonymous and outside people's names (3.2 [MB getParticipantName, Vexa]). */
export const nameSuffixes = ['(Unverified)', '(Guest)', '(External)'];

/** After the hang-up button, a confirmation may ask (3.7 [Vexa, MB]: "confirm 'Leave'"). */
export const leaveConfirmTexts = ['Leave'];
