/**
 * The Zoom web client's words, as the open-source peers read them (docs/research/
 * real-platforms.md, section 4; the peer in brackets). Where sources disagree, every variant is kept.
 * Compared case-insensitively as substrings, with straight and curly apostrophes and "…"/"..." alike
 * (in-page/state-scan.ts).
 */

/** The `/j/<id>` launch page (4.1 [ScreenApp]): its link into the web client. */
export const launchPageTexts = ['Launch Meeting', 'Download Now'];
export const joinFromBrowserText = 'Join from your browser';

/**
 * Before the form, the host has not started (4.2 [Vexa, MB]): Zoom's error page ("Error - Zoom"),
 * which never changes by itself: the peers reload it every 15 s, up to 10 minutes.
 */
export const hostNotStartedPageTexts = ['This meeting link is invalid (3,001)'];
/** After Join, the same wait as the peers list it (4.2 [Vexa, MB]). */
export const waitingForHostTexts = ['Waiting for the host to start this meeting', 'Waiting for the host to start the meeting'];
export const HOST_NOT_STARTED_RELOAD_MS = 15_000;

/** Only signed-in users may join (4.2 [Vexa, MB]): terminal. */
export const authRequiredTexts = ['sign in to join this meeting', 'only authenticated users can join', 'this meeting requires authentication'];

/**
 * A passcode refused (MB zoom-passcode.ts: "incorrect", "invalid" or "wrong" near "passcode" or
 * "password"; its pattern spelled out as phrases): the link's passcode does not open the meeting.
 */
export const wrongPasscodeTexts = ['incorrect passcode', 'invalid passcode', 'wrong passcode', 'passcode is incorrect', 'passcode is invalid', 'passcode is wrong', 'incorrect password', 'invalid password', 'wrong password'];

/** Zoom's bot wall after Join (1.2, 4.4 [ScreenApp #45, Vexa #345]); it also says "sign in to join", so it is checked first. */
export const botWallTexts = ['We detected you may be a bot', "Automated bots aren't allowed", 'must use Zoom RTMS'];
/** Zoom's own image captcha (4.4 [MB]). */
export const captchaTexts = ['Type the characters you see'];

/** Media permission prompts before the form, up to twice (4.2 [Vexa, MB]): "Allow", else Zoom never creates participant audio. */
export const allowText = 'Allow';
export const withoutDevicesText = 'Continue without microphone and camera';

/** The consent layers over the form (4.2 [MB]): generic buttons outside OneTrust's container. */
export const consentButtonTexts = ['Agree', 'Accept', 'Continue'];

/** The joining spinner after Join (4.4 [Vexa, MB]); an empty video player sits behind it. */
export const joiningTexts = ['Joining Meeting', 'Joining the meeting', 'Connecting to the meeting'];

/** The waiting room, text only (4.4 [Vexa, MB]): it renders inside `.meeting-app`, so the texts decide. Zoom's own sentences: */
export const waitingRoomTexts = ['Please wait, the meeting host will let you in soon', "Host has joined. We've let them know you're here"];
/**
 * …and the fragments the peers match (MB zoom-lobby.ts, Vexa selectors.ts). Zoom renders these in
 * the call too (connecting-audio toasts, host-control notices: Vexa #966, fixed by #967 ranking
 * in-meeting evidence first), so they count only where no in-call control shows.
 */
export const waitingRoomFragments = ['waiting room', 'will let you in', 'admitted shortly', 'Please wait', 'Host has joined'];

/** Out of the call (4.6 [Vexa, MB, ScreenApp]). Zoom has no denial text of its own: the host removes people from the waiting room. */
export const removedTexts = ['You have been removed'];
/** The bare fragment counts in a modal's title or a heading only: a notice that someone else was removed is no removal of the bot. */
export const removedFragments = ['removed from the meeting'];
/** [Vexa, MB; "ended by the host": MB zoom-state-config.ts, Vexa selectors.ts] */
export const endedTexts = ['This meeting has been ended by host', 'host ended the meeting', 'meeting has ended', 'ended by the host'];

/**
 * The web client's pages (4.6 [Vexa zoom/removal.ts audio-init URLs, MB zoom.ts findEndMeeting]):
 * `/wc/…` and the launch pages that may embed it (`/j/`, `/s/`, `/w/`, ScreenApp's `iframe#webclient`).
 * Once in the call, any other page (off Zoom, `/signin`, `/login`, Zoom's home or product site) ends it.
 */
export const meetingPagePattern = String.raw`^https://(?:[a-z0-9-]+\.)?zoom\.us/(?:wc/|[jsw]/\d)`;
/** Zoom's sign-in pages: before the call, a redirect there is the sign-in wall (4.2). */
export const signInPagePattern = String.raw`^https://(?:[a-z0-9-]+\.)?zoom\.us/(?:signin|login)(?:[/?#]|$)`;
/** Zoom's product site, where a block can send a guest (Vexa: off-domain navigation). */
export const productHost = 'www.zoom.com';

/** In the call (4.5 [Vexa monolith]): computer audio must be joined, or no `<audio>` elements exist. */
export const joinAudioTexts = ['Join Audio by Computer', 'Join with Computer Audio', 'Computer Audio', 'Join Audio'];

/** Popups after admission and their buttons (4.5 [Vexa zoom/leave.ts, ScreenApp]). */
export const popupButtonTexts = ['OK', 'Got it'];

/** The leave dialog's button for a guest (4.6 [Vexa, MB]); "End for All" is the host's. */
export const leaveMeetingText = 'Leave Meeting';

/** Suffixes after names in the participants list (4.5 [MB]); "(me)" marks the page's own participant. */
export const nameSuffixPattern = String.raw`\s*\((?:host|co-host|me|guest)(?:\s*,\s*(?:host|co-host|me|guest))*\)\s*$`;
export const selfMarkPattern = String.raw`\((?:[^)]*,\s*)?me(?:\s*,[^)]*)?\)`;

/**
 * Layout: the "View" button at the top right, then "Speaker" or "Gallery"; older clients name the
 * view itself ("Speaker View", "Gallery View") or offer a toggle to the other one. Not in the
 * research note: from Zoom's help as universities and vendors relay it
 * (https://help.illinoisstate.edu/technology/support-topics/communication-and-collaboration-tools/zoom/switching-views-in-a-zoom-meeting,
 * https://www.paintboxtv.com/zoom-101-5/).
 */
export const viewButtonText = 'View';
export const speakerViewTexts = ['Speaker View', 'Speaker', 'Active Speaker'];
export const galleryViewTexts = ['Gallery View', 'Gallery'];
