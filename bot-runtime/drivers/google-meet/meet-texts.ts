/**
 * Google Meet's words, as the open-source peers read them (docs/research/real-platforms.md,
 * section 2; the peer in brackets). Where sources disagree, every variant is kept. Compared
 * case-insensitively as substrings, with straight and curly apostrophes alike (in-page/state-scan.ts).
 */

/** The primary call-to-action button's span (2.2 [Attendee, Vexa]); "Switch here" when the account is already in the call. */
export const joinButtonTexts = ['Ask to join', 'Ask to join anyway', 'Join now', 'Join the call now', 'Join anyway', 'Join here too', 'Switch here'];

/** Pre-join interstitials clicked away before typing the name (2.2 [ScreenApp, MB]). */
export const prejoinInterstitials = ['Continue without microphone and camera', 'Use without an account', 'Got it', 'Dismiss'];

/** Meet ended the request itself, after about 10 minutes (2.3 [Attendee, MB, ScreenApp]). */
export const lobbyExpiredTexts = ['No one responded to your request to join the call'];

/** Explicit refusal of the request (2.5 [ScreenApp, Attendee, Vexa]). */
export const deniedTexts = [
  'Someone in the call denied your request to join',
  'denied your request',
  'Your request to join was denied',
  'You were denied',
  "weren't allowed to join",
  'not allowed to join',
  'not admitted',
  "can't join this call",
  // [Vexa googlemeet/selectors.ts, 2026-07]
  'cannot join this call',
  'Ask to join again',
];

/** Out of the call (2.10 [Attendee, MB, Vexa]). "Return to home" is left out: it sits on the waiting screen too (Vexa #471). */
export const removedTexts = ["You've been removed from the meeting", "You've been removed"];
/** [Attendee, MB, Vexa]; "meeting has ended" covers Vexa's "Meeting has ended" / "This meeting has ended" (2.10). */
export const endedTexts = ['Your host ended the meeting for everyone', 'Call ended', 'Meeting ended', 'meeting has ended'];
/** Shown after the bot's own leave and after a denial (2.5 [Attendee]). */
export const leftTexts = ['You left the meeting'];

/** Meet will not let this bot in (2.2 [Attendee, ScreenApp #46]; MB's "we encountered a problem joining", 2.5). */
export const blockedTexts = [
  "You can't join this video call",
  'There is a problem connecting to this video call',
  "You can't join this meeting",
  'we encountered a problem joining',
  // Vexa's error-page copy (googlemeet/selectors.ts, 2026-07): the platform's refusal, not a host's
  "Can't join the meeting",
  'Unable to join',
];

/** Sign-in wall: `h1` "Sign in" with "your Google Account" (2.2 [Attendee]), or the sign-in host (2.1 [ScreenApp]); MB 2.5. */
export const signInHeading = 'Sign in';
export const signInAccountText = 'your Google Account';
export const signInHost = 'accounts.google.com';
export const signInTexts = ['Your sign-in credentials might have changed'];

/** No such meeting (2.2 [Attendee]). */
export const notFoundTexts = [
  'Check your meeting code',
  'Invalid video call name',
  'Your meeting code has expired',
  "The meeting code you entered doesn't work",
  // [Vexa googlemeet/selectors.ts]
  'Meeting not found',
  'Invalid meeting',
  'Meeting link expired',
];

/** The host has not joined yet, on the pre-join page (2.2 [Attendee]). */
export const waitingForHostTexts = ['Waiting for the host to join'];

/**
 * The request is pending (2.3 [Vexa, Attendee, MB, ScreenApp]): old and new wordings. MB's "Instead of
 * waiting to be let in" is left out, and so is its exact-match `text="waiting to be let in"` as a
 * substring: both are the copy of the pre-join page's "Sign in with your Google account" modal (MB PR
 * #90 review), a lookalike that would read the pre-join page as the lobby.
 */
export const lobbyTexts = [
  'Asking to be let in',
  "You'll join the call when someone lets you in",
  'Asking to join',
  'Your request to join',
  'Waiting for the host',
  'Please wait until a meeting host brings you into the call',
  'Please wait until a meeting host admits you to the call',
  // [Vexa googlemeet/selectors.ts, 2026-07]
  'Waiting for the host to let you in',
  "You're in the waiting room",
];
/** MB's and Vexa's aria-label variants of the waiting screen (2.3); MB's bare `*="waiting"` is left out: host views label "waiting" people in the call. */
export const lobbyLabelFragments = ['Please wait until', 'brings you into', 'admits you', 'waiting for admission'];

/** The pre-join page's sign-in upsell modal (MB PR #90): it mentions waiting but is no lobby; clicked away before joining. */
export const signInUpsellTexts = ['Instead of waiting to be let in'];

/** Post-admission notices accepted with their OK button (2.6 [Attendee]); Gemini's "take notes for me" consent is never clicked (Vexa). */
export const admissionNoticeTexts = [
  'This video call is being recorded',
  'This video call is being transcribed',
  'Gemini is taking notes',
  'Others may see your video differently',
];

/** The self-preview tile already carries `data-participant-id` in the lobby (2.2 lobby traps [Vexa]). */
export const effectsTileMarks = ['visual_effects', 'Backgrounds and effects'];

/** Layout choices of "Change layout" / "Adjust view" (2.6 [Attendee, MB]). */
export const layoutMenuTexts = ['Change layout', 'Adjust view'];
export const speakerLayout = 'Spotlight';
export const galleryLayout = 'Tiled';

/** The meeting page itself: `meet.google.com/<abc-defg-hij>` (2.1). */
export const meetingPagePattern = String.raw`^https://meet\.google\.com/[a-z]{3}-[a-z]{4}-[a-z]{3}(?:[/?#]|$)`;
/** Meet's product site, where a block can send a guest (2.1, ScreenApp: leaving meet.google.com while waiting). */
export const productHost = 'workspace.google.com';

/** The roster: the People panel's list and its entries, named by aria-label (2.7 [Attendee, MB]). */
export const rosterListLabel = 'Participants';

/** After "Leave call", a dialog may ask (2.10). */
export const leaveConfirmTexts = ['Just leave the meeting', 'Leave meeting'];
