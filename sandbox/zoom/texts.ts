/**
 * The words the Zoom replica shows, from the research note (docs/research/real-platforms.md,
 * section 4; the peer that reported each in brackets). Where the note records no wording (the
 * permission prompts' titles, the passcode error, the AI Companion notice), the replica's own is
 * marked so, and no driver relies on it.
 */
import type { WaitingRoomWording, ZoomSettings } from './settings';

export const zoomTexts = {
  /** 4.1 [ScreenApp]: the launch page */
  launchMeeting: 'Launch Meeting',
  downloadNow: 'Download Now',
  joinFromBrowser: 'Join from your browser',
  /** 4.2 [Vexa, MB]: the host has not started (title "Error - Zoom") */
  errorTitle: 'Error - Zoom',
  invalidLink: 'This meeting link is invalid (3,001)',
  waitingForHost: 'Waiting for the host to start this meeting',
  /** 4.2 [Vexa, MB]: auth-restricted */
  authTitle: 'This meeting requires authentication',
  authLine: 'Only authenticated users can join. Please sign in to join this meeting.',
  /** 4.2: the permission prompt's buttons [Vexa, MB]; the titles are the replica's own */
  allow: 'Allow',
  withoutDevices: 'Continue without microphone and camera',
  permissionTitles: ['Use your camera and microphone in this meeting?', 'Use your microphone in this meeting?'],
  /** 4.2 [ScreenApp, MB]: OneTrust */
  acceptCookies: 'Accept Cookies',
  rejectCookies: 'Reject All',
  cookieBanner: 'We use cookies to run this site and to improve it.',
  disclaimerAgree: 'I Agree',
  disclaimerLine: 'This meeting is subject to the organisation\u2019s acceptable use policy.',
  /** 4.3 */
  yourName: 'Your Name',
  join: 'Join',
  passcode: 'Meeting Passcode',
  /** the replica's own wording, of the form MB's zoom-passcode.ts recognises */
  passcodeWrong: 'Incorrect passcode. Please try again.',
  mute: 'Mute',
  unmute: 'Unmute',
  stopVideo: 'Stop Video',
  startVideo: 'Start Video',
  /** 4.4 [Vexa, MB] */
  joining: 'Joining Meeting\u2026',
  /** 4.4 [ScreenApp #45, Vexa #345], with the typographic apostrophe of live copy */
  botWall: 'We detected you may be a bot. Automated bots aren\u2019t allowed to join this meeting or webinar and must use Zoom RTMS.',
  botWallLine: 'If you are not a bot, sign in to join the meeting.',
  /** 4.4 [MB] */
  captcha: 'Type the characters you see',
  captchaPlaceholder: 'Enter captcha',
  /** 4.6 [Vexa, MB] */
  removed: 'You have been removed from the meeting',
  ended: 'This meeting has been ended by host',
  ok: 'OK',
  leave: 'Leave',
  leaveMeeting: 'Leave Meeting',
  cancel: 'Cancel',
  /** 4.5 [Vexa monolith] */
  joinAudioByComputer: 'Join Audio by Computer',
  joinAudio: 'Join Audio',
  /** 4.5 [Vexa]: an AI Companion notice with its OK; the wording is the replica's own */
  aiCompanion: 'AI Companion is on in this meeting.',
  /** the notice banner of apps that access the meeting's content; the wording is the replica's own */
  appNotice: 'Apps accessing meeting content:',
  /** 4.5 [MB]: the footer microphone once audio is joined */
  muteMyMicrophone: 'mute my microphone',
  unmuteMyMicrophone: 'unmute my microphone',
  /** 4.5 [MB, Vexa]: pane toggles */
  openParticipants: 'open the participants list pane',
  closeParticipants: 'close the participants list pane',
  openChat: 'open the chat panel',
  closeChat: 'close the chat panel',
  chatSettings: 'Chat Settings',
  chatList: 'Chat Message List',
  /** layouts: not in the note (driver zoom-texts.ts cites Zoom's help) */
  view: 'View',
  speakerView: 'Speaker View',
  galleryView: 'Gallery View',
  signIn: 'Sign In',
} as const;

/** The waiting room (4.4 [Vexa, MB]): Zoom's two sentences; the second with the typographic apostrophes of live copy. */
export const waitingRoomWordingTexts: Record<WaitingRoomWording, string> = {
  please_wait: 'Please wait, the meeting host will let you in soon.',
  host_joined: 'Host has joined. We\u2019ve let them know you\u2019re here.',
  // the fragment MB's zoom-lobby.ts matches
  admitted_shortly: 'You will be admitted shortly.',
};

/** The ends' wordings, by setting (the peer in brackets). */
export const zoomEndWordings = {
  removed: {
    removed_from_meeting: 'You have been removed from the meeting', // [Vexa, MB]
    you_have_been_removed: 'You have been removed by the host', // [MB: "You have been removed"]
  },
  ended: {
    ended_by_host: 'This meeting has been ended by host', // [Vexa, MB]
    ended_by_the_host: 'This meeting has been ended by the host', // [MB zoom-state-config.ts, Vexa: "ended by the host"]
    meeting_has_ended: 'This meeting has ended', // [MB]
  },
} as const;

/** Lookalikes in the call: Zoom shows these words in the meeting too (Vexa #966). */
export const inCallNotices = ['Connecting to audio. Please wait\u2026', 'The host moved a participant to the waiting room'];

/** The page's texts for a meeting's settings: the chosen wordings. */
export const zoomTextsFor = (settings: ZoomSettings) => ({
  ...zoomTexts,
  removed: zoomEndWordings.removed[settings.removed_wording],
  ended: zoomEndWordings.ended[settings.ended_wording],
  inCallNotices,
});
