/**
 * The words the Teams replica shows, from the research note (../shared/research/real-platforms.md,
 * section 3; the peer that reported each in brackets). Live copy uses typographic apostrophes, so the
 * replica does too where a text has one: drivers must accept both.
 */
import type { TeamsLobbyWording } from './settings';

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
};
