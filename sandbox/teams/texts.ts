/**
 * The words the Teams replica shows, from the research note (docs/research/real-platforms.md,
 * section 3; the peer that reported each in brackets). Live copy uses typographic apostrophes, so the
 * replica does too where a text has one: drivers must accept both.
 */
import type { TeamsLobbyWording, TeamsSettings } from './settings';

export const teamsTexts = {
  /** 3.2 launcher [ScreenApp, Vexa, MB] */
  continueOnBrowser: 'Continue on this browser',
  continueOnBrowserLabel: 'Join meeting from this browser',
  /** 3.2 permission gate [Vexa] */
  permissionGate: 'Select Allow to let Microsoft Teams use your mic and camera',
  /** 3.2 pre-join [ScreenApp, Attendee, MB, Vexa] */
  typeYourName: 'Type your name',
  joinNow: 'Join now',
  cancel: 'Cancel',
  cameraOn: 'Turn camera off',
  cameraOff: 'Turn camera on',
  micOn: 'Mute mic',
  micOff: 'Unmute mic',
  computerAudio: 'Computer audio',
  noAudio: 'Don\u2019t use audio',
  /** 3.2 AV-confirm modal [Vexa #226, #467] */
  avQuestion: 'Are you sure you don\u2019t want audio or video?',
  avContinue: 'Continue without audio or video',
  /** 3.2 walls [MB #157; Attendee] */
  verifyInfo: 'We need to verify your info before you can join',
  signIn: 'Sign in',
  captcha: 'Verify you\u2019re a real person',
  badUrl: 'Looks like the meeting URL is incorrect. Please check the URL and try again.',
  /** 3.3 [ScreenApp, MB] */
  denied: 'Sorry, but you were denied access to the meeting.',
  dismiss: 'Dismiss',
  /** 3.7 [Attendee, Vexa]; ScreenApp's "this meeting has ended" */
  removed: 'You\u2019ve been removed from this meeting',
  rejoin: 'Rejoin',
  ended: 'This meeting has ended.',
  /** not in the note: what the replica shows after the participant's own leave (no driver reads it) */
  left: 'You left the meeting.',
  /** 3.2 [MB getParticipantName, Vexa]: after an anonymous participant's name */
  unverified: '(Unverified)',
  /** 3.6 */
  typeMessage: 'Type a message',
  chatDisabled: 'Chat is turned off for this meeting',
  /** 3.4 view menu [Attendee, MB] */
  speakerView: 'Speaker',
  galleryView: 'Gallery',
  /** 3.8 item 7: a benign toast in an alert region shortly after admission (Vexa #600) */
  toast: 'Your camera and mic are off',
} as const;

/** The lobby's words after "Hi, <name>." (3.3): MB #291, Vexa, Attendee. */
export const teamsLobbyWordingTexts: Record<TeamsLobbyWording, string> = {
  meeting_starts: 'Someone will let you in when the meeting starts.',
  shortly: 'Someone will let you in shortly.',
  soon: 'Someone will let you in soon.',
  waiting_for_someone: 'Waiting for someone to let you in',
  waiting_to_be_admitted: 'Waiting to be admitted\u2026',
  // [Vexa msteams/selectors.ts, 2026-07]
  in_the_lobby: 'You\u2019re in the lobby',
  admits_you: 'Please wait until someone admits you',
  request_sent: 'Your request to join has been sent',
};

/** The ends' and the sign-in modal's wordings, by setting (the peer in brackets). */
export const teamsWordings = {
  denied: {
    denied_access: 'Sorry, but you were denied access to the meeting.', // [ScreenApp, MB]
    declined: 'Your request to join was declined', // [Attendee]
    denied_entry: 'You were denied entry', // [Vexa selectors.ts 2026-07]
  },
  removed: {
    removed_from_this_meeting: 'You\u2019ve been removed from this meeting', // [Attendee, Vexa]
    you_have_been_removed: 'You have been removed from this meeting', // [Vexa]
    removed_from_meeting: 'Removed from meeting', // [Vexa]
  },
  ended: {
    this_meeting_has_ended: 'This meeting has ended.', // [ScreenApp]
    meeting_ended: 'Meeting ended', // [Vexa]
  },
  signIn: {
    verify_info: 'We need to verify your info before you can join', // [MB #157]
    sign_in_or_web: 'To join, sign in or use Teams on the web', // [Attendee]
    not_signed_in: 'If you\u2019re not signed in to a Teams (work or school) account, sign in and try joining again.', // [Attendee 2026-08]
  },
} as const;

/** A lookalike in the call: someone else's removal announced (the bare words count only as a screen's title). */
export const removalNotice = 'Bob (Guest) was removed from the meeting';

/** The page's texts for a meeting's settings: the chosen wordings. */
export const teamsTextsFor = (settings: TeamsSettings) => ({
  ...teamsTexts,
  denied: teamsWordings.denied[settings.denied_wording],
  removed: teamsWordings.removed[settings.removed_wording],
  ended: teamsWordings.ended[settings.ended_wording],
  verifyInfo: teamsWordings.signIn[settings.sign_in_wording],
  removalNotice,
});
