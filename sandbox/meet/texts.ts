/**
 * The words the Meet replica shows, from the research note (docs/research/real-platforms.md,
 * section 2; the peer that reported each in brackets). Live copy uses typographic apostrophes (2.3),
 * so the replica does too: drivers must accept both.
 */
import type { LobbyWording, MeetSettings } from './settings';

export const meetTexts = {
  /** 2.2 [Attendee, Vexa]: the CTA's span in knock mode and in open mode */
  askToJoin: 'Ask to join',
  joinNow: 'Join now',
  yourName: 'Your name',
  /** 2.2 [Attendee] */
  waitingForHost: 'Waiting for the host to join',
  /** 2.2 lobby trap [Vexa]: the self-preview tile's label and icon ligature */
  effects: 'Backgrounds and effects',
  effectsIcon: 'visual_effects',
  /** 2.2 trap [Vexa #471]: on the waiting screen, not a rejection */
  returnHome: 'Return to home screen',
  /** 2.5 [ScreenApp, Attendee], then "You left the meeting" [Attendee] */
  denied: 'Someone in the call denied your request to join',
  left: 'You left the meeting',
  /** 2.3 [Attendee, MB, ScreenApp] */
  lobbyExpired: 'No one responded to your request to join the call',
  /** 2.2 [Attendee] */
  blocked: 'You can\u2019t join this video call',
  notFound: 'Check your meeting code',
  /** 2.10 [Attendee] */
  removed: 'You\u2019ve been removed from the meeting',
  ended: 'Your host ended the meeting for everyone',
  rejoin: 'Rejoin',
  /** 2.2 [Attendee]: `h1` "Sign in" with "your Google Account" */
  signIn: 'Sign in',
  signInAccount: 'Use your Google Account',
  /** 2.9 */
  sendMessage: 'Send a message',
  chatWithEveryone: 'Chat with everyone',
  chatNewMessage: 'Chat with everyone - New message',
  /** 2.6: the More options menu and its layouts */
  changeLayout: 'Change layout',
  layouts: ['Auto', 'Tiled', 'Spotlight', 'Sidebar'],
} as const;

/** The waiting screen after a knock (2.3): a heading and, where the sources give one, a line under it. */
export const lobbyWordingTexts: Record<LobbyWording, { readonly heading: string; readonly line: string | null }> = {
  // [Vexa, Attendee]; the line with a typographic apostrophe [Vexa]
  let_in: { heading: 'Asking to be let in\u2026', line: 'You\u2019ll join the call when someone lets you in' },
  // [MB, ScreenApp]
  asking_to_join: { heading: 'Asking to join\u2026', line: null },
  // the new wordings [ScreenApp constant; MB #198, #281]
  admits_you: { heading: 'Please wait until a meeting host admits you to the call', line: null },
  brings_you_in: { heading: 'Please wait until a meeting host brings you into the call', line: null },
  // [Vexa googlemeet/selectors.ts, 2026-07]
  host_to_let_you_in: { heading: 'Waiting for the host to let you in', line: null },
  waiting_room: { heading: 'You\u2019re in the waiting room', line: null },
};

/** The ends' wordings, by setting (the peer in brackets). */
export const meetEndWordings = {
  denied: {
    someone_denied: 'Someone in the call denied your request to join', // [ScreenApp, Attendee]
    request_denied: 'Your request to join was denied', // [Vexa]
    not_allowed: 'You weren\u2019t allowed to join this call', // [Vexa]
    cannot_join_call: 'You cannot join this call', // [Vexa selectors.ts 2026-07]
  },
  removed: {
    removed_from_meeting: 'You\u2019ve been removed from the meeting', // [Attendee]
    removed: 'You\u2019ve been removed', // [MB meet-state-config.ts]
  },
  ended: {
    host_ended: 'Your host ended the meeting for everyone', // [Attendee]
    call_ended: 'The call ended', // [MB]
    meeting_has_ended: 'This meeting has ended', // [Vexa selectors.ts]
  },
  blocked: {
    video_call: 'You can\u2019t join this video call', // [Attendee #841]
    meeting: 'You can\u2019t join this meeting', // [ScreenApp #46]
    problem_connecting: 'There is a problem connecting to this video call', // [Attendee]
    cant_join_the_meeting: 'Can\u2019t join the meeting', // [Vexa selectors.ts]
  },
} as const;

/** The pre-join page's sign-in upsell (MB PR #90: a lookalike mentioning waiting, no lobby). */
export const signInUpsell = {
  heading: 'Sign in with your Google account',
  line: 'Instead of waiting to be let in, join meetings directly with your Google account.',
  signIn: 'Sign in',
  dismiss: 'Dismiss',
};

/** The page's texts for a meeting's settings: the chosen wordings. */
export const meetTextsFor = (settings: MeetSettings) => ({
  ...meetTexts,
  denied: meetEndWordings.denied[settings.denied_wording],
  removed: meetEndWordings.removed[settings.removed_wording],
  ended: meetEndWordings.ended[settings.ended_wording],
  blocked: meetEndWordings.blocked[settings.blocked_wording],
  upsell: signInUpsell,
});
