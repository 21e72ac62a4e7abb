/**
 * The words the Meet replica shows, from the research note (../shared/research/real-platforms.md,
 * section 2; the peer that reported each in brackets). Live copy uses typographic apostrophes (2.3),
 * so the replica does too: drivers must accept both.
 */
import type { LobbyWording } from './settings';

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
};
