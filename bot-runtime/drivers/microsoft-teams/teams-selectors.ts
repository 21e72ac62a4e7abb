/**
 * Where Microsoft Teams' elements are, as the open-source peers find them (docs/research/
 * real-platforms.md, section 3), several candidates per element, most specific first. `data-tid`
 * attributes and element ids are what every peer relies on; obfuscated class names (`___2u340f0`)
 * are not used at all (1.3).
 */
import type { Toggle } from '../driver-actions';
import type { HeadCountConfig, RosterReaderConfig } from '../in-page/roster';
import type { ChatReaderConfig, TileReaderConfig } from '../in-page/tiles-and-chat';
import type { Candidate } from '../page-actions';
import { avConfirmButton, computerAudio, joinButtonTexts, launcherLabels, launcherTexts, leaveConfirmTexts } from './teams-texts';

const clickable = 'button, [role="button"], a';

/** 3.2: the launcher's "Continue on this browser" [ScreenApp, Vexa, MB]: by its labels, then by its text. */
export const launcherButton: Candidate[] = [
  ...launcherLabels.map((label) => ({ selector: `button[aria-label="${label}"], [role="button"][aria-label="${label}"]` })),
  ...launcherTexts.map((text) => ({ selector: clickable, text, exact: true })),
];

/** 3.2: the AV-confirm modal's way on [Vexa msteams/modals.ts]. */
export const avConfirm: Candidate[] = [
  { selector: '[role="dialog"] button, [role="alertdialog"] button', text: avConfirmButton, exact: true },
  { selector: clickable, text: avConfirmButton, exact: true },
];

/** 3.2: the display name [ScreenApp, Attendee; MB]; absent for signed-in bots. */
export const nameInput: Candidate[] = [{ selector: 'input[data-tid="prejoin-display-name-input"]' }, { selector: 'input[placeholder="Type your name"]' }];

/**
 * A signed-in web client's "me control" in the title bar (the avatar button; its card names the account:
 * `me-control-displayname`), as AWS's Live Meeting Assistant reads the user's name (its Teams content script).
 */
export const meControl: Candidate[] = [{ selector: 'button[data-tid="me-control-avatar-trigger"]' }, { selector: 'button#idna-me-control-avatar-trigger' }];
export const meControlName: Candidate[] = [{ selector: '[data-tid="me-control-displayname"]' }];

/**
 * 3.2: camera and microphone are `role=switch` inputs, `checked` while the device is on [ScreenApp,
 * Attendee, MB]; where the switch is missing, a button whose title or label says what a click does
 * (Vexa's "Turn off video").
 */
export interface DeviceSwitch extends Toggle {
  readonly switch: Candidate[];
}
const titled = (words: readonly string[]): Candidate[] => words.flatMap((w) => [{ selector: `[title="${w}"]` }, { selector: `[aria-label="${w}"]` }]);
export const camera: DeviceSwitch = {
  switch: [{ selector: '[data-tid="toggle-video"]' }],
  turnOff: titled(['Turn camera off', 'Turn off video']),
  isOff: titled(['Turn camera on', 'Turn on video']),
};
export const microphone: DeviceSwitch = {
  switch: [{ selector: '[data-tid="toggle-mute"]' }],
  turnOff: titled(['Mute mic']),
  isOff: titled(['Unmute mic']),
};

/** 3.2: the audio choice radios [Vexa]; the bot keeps "Computer audio" so that it hears the meeting. */
export const computerAudioRadio: Candidate[] = [{ selector: '[role="radio"]', text: computerAudio, exact: true }, { selector: `[role="radio"][aria-label="${computerAudio}"]` }];

/** 3.2: "Join now" [Attendee], then ScreenApp's role=button names. */
export const joinButton = (enabledOnly: boolean): Candidate[] => {
  const enabled = enabledOnly ? ':not([disabled]):not([aria-disabled="true"])' : '';
  return [
    { selector: `[data-tid="prejoin-join-button"]${enabled}` },
    ...joinButtonTexts.map((text) => ({ selector: `button${enabled}, [role="button"]${enabled}`, text, exact: true })),
  ];
};

/** 3.3: the hang-up button that says "in the call" [Vexa, Attendee, MB]; one element may carry all of them. */
export const hangUpSelectors = ['button#hangup-button', 'button[data-tid="hangup-main-btn"]', '[data-inp="hangup-button"]', 'button[aria-label="Leave"]'];
export const hangUp: Candidate[] = hangUpSelectors.map((selector) => ({ selector }));
/** 3.7: "confirm 'Leave'" */
export const leaveConfirm: Candidate[] = leaveConfirmTexts.map((text) => ({ selector: '[role="dialog"] button, [role="alertdialog"] button', text, exact: true }));

/** 3.4: the view switcher and its layouts [Attendee, MB]; it may sit under "More" (`#callingButtons-showMoreBtn`). */
export const viewButton: Candidate[] = [{ selector: '#view-mode-button' }, { selector: '#custom-view-button' }];
export const moreButton: Candidate[] = [{ selector: '#callingButtons-showMoreBtn' }];
export const speakerLayout: Candidate[] = [{ selector: '#SpeakerView-button' }, { selector: '#custom-view-button-SpeakerViewButton' }];
export const galleryLayout: Candidate[] = [{ selector: '#MixedGrid-button' }];

/** 3.6: the chat panel's toggle [Attendee; MB's label and title fragments]. */
export const chatButton: Candidate[] = [{ selector: 'button#chat-button' }, { selector: 'button[aria-label*="chat" i]' }, { selector: 'button[title*="chat" i]' }];
/** 3.6: the composer, CKEditor 5 [MB, Vexa]. */
export const composerSelectors = ['div[data-tid="ckeditor"][role="textbox"]', '[contenteditable][aria-label="Type a message"]', '[aria-label="Type a message"]', '[placeholder="Type a message"]'];
export const composer: Candidate[] = composerSelectors.map((selector) => ({ selector }));
export const sendButton: Candidate[] = [{ selector: 'button[data-tid="sendMessageCommands-send"]' }];
/** 3.6: chat turned off for the meeting [MB] */
export const chatDisabledMark = '[data-tid="compose-disabled-placeholder-text"]';

/** 3.6: message rows, their author and body [Vexa]. */
export const chat: ChatReaderConfig = {
  row: '[data-tid="chat-pane-message"]',
  text: ['[data-tid="messageBodyContent"]'],
  sender: ['[data-tid="message-author-name"]'],
  composer: composerSelectors,
};

/** 3.5: video tiles whose `data-tid` is the display name; the speaking outline's class [MB]. */
export const tiles: TileReaderConfig = {
  tile: '[data-stream-type="Video"][data-tid]',
  idAttributes: ['data-tid'],
  name: [{ attribute: 'data-tid' }],
  without: [],
  // Teams' tiles carry no participant id and no "this is you" mark the peers read: the bot is known by its name
  self: [],
  speaking: ['[data-tid="voice-level-stream-outline"].vdi-frame-occlusion'],
};
/** 3.5: the outline whose blue `::before` border at opacity 1 is MB's second speaking heuristic. */
export const speakingOutline = '[data-tid="voice-level-stream-outline"]';

/**
 * 3.5: the roster (People pane) [Vexa msteams-speakers.ts: panel `[data-tid="roster"]`,
 * `[data-tid="people-pane"]`, entries `[role="treeitem"]`; MB: teams.live.com entries labelled
 * "Name, …"], opened by `[data-tid="roster-button"]` [Attendee, MB].
 */
export const peopleButton: Candidate[] = [{ selector: '[data-tid="roster-button"]' }];
export const rosterPanels = ['[data-tid="people-pane"]', '[data-tid="roster"]'];
export const roster: RosterReaderConfig = {
  item: rosterPanels.map((p) => `${p} [role="treeitem"]`).join(', '),
  name: [{ attribute: 'aria-label' }, { selector: '[data-tid="roster-participant-name"]' }],
  cutAt: [','],
};
/** Teams shows no head count the peers read. */
export const headCount: HeadCountConfig = {};

/** What text scans never read: the chat, people's names, captions (people's words) and the roster (3.5, 3.6). */
export const unreadSubtrees = [
  chat.row,
  '[data-tid="chat-pane-list"]',
  ...composerSelectors,
  '[data-stream-type="Video"]',
  '[data-tid="roster"]',
  '[data-tid="people-pane"]',
  '[data-tid="closed-caption-renderer-wrapper"]',
  '[data-tid="closed-caption-v2-window-wrapper"]',
];

/** Names in the page, for redacting diagnostics; tile names are attributes, collected by the driver. */
export const nameElements = ['[data-tid="message-author-name"]', '[data-tid="author"]'];
