/**
 * Where the Zoom web client's elements are, as the open-source peers find them (../shared/research/
 * real-platforms.md, section 4), several candidates per element, most specific first: the React
 * client (`/wc/<id>/join`) and the classic one (`/wc/join/<id>`) side by side.
 */
import type { Candidate } from '../page-actions';
import type { ChatReaderConfig } from '../in-page/tiles-and-chat';
import {
  allowText,
  consentButtonTexts,
  galleryViewTexts,
  joinAudioTexts,
  joinFromBrowserText,
  leaveMeetingText,
  popupButtonTexts,
  speakerViewTexts,
  viewButtonText,
  withoutDevicesText,
} from './zoom-texts';

/** 4.1 [ScreenApp]: the launch page's link into the web client. */
export const joinFromBrowser: Candidate[] = [
  { selector: 'a', text: joinFromBrowserText },
  { selector: 'button, [role="button"]', text: joinFromBrowserText },
];

/** 4.2: consent layers over the form [MB]: OneTrust first, the admin disclaimer, then generic buttons outside OneTrust. */
export const consentButtons: Candidate[] = [
  { selector: '#onetrust-accept-btn-handler' },
  { selector: '#onetrust-reject-all-handler' },
  { selector: '#disclaimer_agree' },
  ...consentButtonTexts.map((text) => ({ selector: 'button:not(#onetrust-consent-sdk button)', text, exact: true })),
];

/** 4.2: the media permission prompt [Vexa, MB]: "Allow" (else no participant audio), the way out as a fallback. */
export const permissionAllow: Candidate[] = [{ selector: 'button', text: allowText, exact: true }];
export const permissionWithout: Candidate[] = [{ selector: 'button, [role="button"]', text: withoutDevicesText }];

/** 4.3: the name field, React then classic [Vexa, MB]. */
export const nameInput: Candidate[] = [{ selector: '#input-for-name' }, { selector: '#inputname' }, { selector: 'input[placeholder="Your Name"]' }];

/** 4.3: an empty passcode field keeps Join disabled for ever [Vexa, MB]. */
export const passcodeInput: Candidate[] = [
  { selector: 'input[placeholder*="passcode" i]' },
  { selector: 'input[placeholder*="password" i]' },
  { selector: 'input[type="password"]' },
];

/** 4.3: Join, React (class `disabled` until a name is typed with real keys) then classic. */
export const joinButton: Candidate[] = [{ selector: 'button.preview-join-button' }, { selector: '#joinBtn' }];
export const enabledJoinButton: Candidate[] = [{ selector: 'button.preview-join-button:not(.disabled)' }, { selector: '#joinBtn' }];

/** 4.3: the preview's toggles; the label says what a click does ("Mute" while the microphone is live). */
export const previewMicrophone = { turnOff: [{ selector: '#preview-audio-control-button[aria-label="Mute"]' }], isOff: [{ selector: '#preview-audio-control-button[aria-label="Unmute"]' }] };
export const previewCamera = {
  turnOff: [{ selector: '#preview-video-control-button[aria-label="Stop Video"]' }],
  isOff: [{ selector: '#preview-video-control-button[aria-label="Start Video"]' }],
};

/** 4.4 [Vexa, MB]: in the call, the footer's Leave (the footer hides itself), and the speaker-view frames. */
export const leaveButton: Candidate[] = [
  { selector: '[footer-section="right"] button[aria-label="Leave"]' },
  { selector: 'button.footer-button__button[aria-label="Leave"]' },
  { selector: 'button[aria-label="Leave"]' },
];
export const inCallFrames = ['.single-main-container__video-frame', '.single-suspension-container__video-frame'];
/** 4.6: the guest's confirmation; its aria-label is empty and Enter cancels the dialog, so it is clicked. */
export const leaveConfirm: Candidate[] = [{ selector: 'button.leave-meeting-options__btn--danger' }, { selector: 'button', text: leaveMeetingText, exact: true }];

/** 4.5 [Vexa monolith]: joining computer audio, by the modal or the footer button. */
export const joinAudio: Candidate[] = [
  ...joinAudioTexts.map((text) => ({ selector: '.ReactModal__Content button', text, exact: true })),
  { selector: 'button.join-audio-container__btn[aria-label="join audio"]' },
  { selector: 'button[aria-label="join audio"]' },
  ...joinAudioTexts.map((text) => ({ selector: 'button', text, exact: true })),
];
/** 4.3, 4.5: the footer microphone once audio is joined [MB labels; Vexa "Mute"/"Unmute"]. */
export const footerMicrophone = {
  turnOff: [{ selector: 'button[aria-label="mute my microphone"]' }, { selector: 'button.join-audio-container__btn[aria-label="Mute"]' }],
  isOff: [{ selector: 'button[aria-label="unmute my microphone"]' }, { selector: 'button.join-audio-container__btn[aria-label="Unmute"]' }],
};

/** 4.5: popups after admission [Vexa zoom/leave.ts]: AI Companion, the guest-chat tooltip, feature tips. */
export const popupButtons: Candidate[] = [
  ...popupButtonTexts.map((text) => ({ selector: '.zm-modal button', text, exact: true })),
  { selector: '.relative-tooltip button', text: 'Got it', exact: true },
  { selector: '.settings-feature-tips button', text: 'OK', exact: true },
  ...popupButtonTexts.map((text) => ({ selector: '.ReactModal__Content button', text, exact: true })),
];

/** 4.5: the chat toggle, exact (a substring "chat" hits "Chat Settings" first) [MB, Vexa]. */
export const chatButton: Candidate[] = [{ selector: 'button[aria-label="open the chat panel"]' }];
/** 4.5: the TipTap/ProseMirror composer and the send button [Vexa, MB]. */
export const chatComposerSelectors = ['.chat-rtf-box__editor-outer div.tiptap.ProseMirror[contenteditable]', 'div.tiptap.ProseMirror[contenteditable]', '.chat-rtf-box__editor-outer [contenteditable]'];
export const chatComposer: Candidate[] = chatComposerSelectors.map((selector) => ({ selector }));
export const chatSend: Candidate[] = [{ selector: 'button[aria-label="send"]' }, { selector: '.chat-rtf-box__send' }];

/** 4.5: messages in their list, the sender above each group [Vexa, MB]. */
export const chatListSelectors = ['[aria-label="Chat Message List"]', '.chat-container__chat-list', '.chat-virtuoso-wrapper', '#chat'];
export const chat: ChatReaderConfig = {
  row: '.new-chat-message__container',
  text: ['.new-chat-message__content', '.chat-rtf-box__display', '.new-chat-message__text-box'],
  sender: ['.chat-item__sender'],
  composer: chatComposerSelectors,
};

/** 4.5: the participants pane's toggle [MB exact start; Vexa substring] and its names under `#participants-ul`. */
export const participantsButton: Candidate[] = [
  { selector: 'button[aria-label^="open the participants list pane"]' },
  { selector: 'button[aria-label*="participants list" i]:not([aria-label^="close"])' },
];
export const participantsList = '#participants-ul';
export const participantItem = '#participants-ul .participants-item';
export const participantName = ['.participants-item__display-name'];

/** 4.5: the current speaker's name in the speaker-view main tile [Vexa, MB 2026-07 forensics]. */
export const speakerName = ['.single-main-container__video-frame .video-avatar__avatar-footer > span', '.single-main-container__video-frame .video-avatar__avatar-footer'];

/** The layout (see zoom-texts.ts: not in the note): the View button, then the view by name. */
export const viewButton: Candidate[] = [{ selector: 'button[aria-label="View"]' }, { selector: 'button', text: viewButtonText, exact: true }];
const viewChoice = (texts: readonly string[]): Candidate[] => [
  ...texts.map((text) => ({ selector: '[role="menuitem"], [role="menuitemradio"]', text, exact: true })),
  ...texts.map((text) => ({ selector: `[aria-label="${text}"]` })),
  ...texts.map((text) => ({ selector: 'button', text: `Switch to ${text}`, exact: true })),
];
export const speakerViewChoice = viewChoice(speakerViewTexts);
export const galleryViewChoice = viewChoice(galleryViewTexts);

/** What text scans never read: the chat (MB's 2026-08 incident: the bot's own message ended it), and people's names. */
export const unreadSubtrees = [...chatListSelectors, '.chat-rtf-box__editor-outer', chat.row, participantsList, '.video-avatar__avatar-footer'];

/** Names in the page, for redacting diagnostics. */
export const nameElements = ['.participants-item__display-name', '.video-avatar__avatar-footer', '.chat-item__sender'];
