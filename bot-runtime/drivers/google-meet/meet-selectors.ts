/**
 * Where Google Meet's elements are, as the open-source peers find them (docs/research/
 * real-platforms.md, section 2), several candidates per element, most specific first. Obfuscated
 * class names (`.poVWob`, `.jO4O1`, `.Oaajhc`…) rotate and are kept as last resorts.
 */
import type { Candidate } from '../page-actions';
import type { HeadCountConfig, RosterReaderConfig } from '../in-page/roster';
import type { ChatReaderConfig, TileReaderConfig } from '../in-page/tiles-and-chat';
import { effectsTileMarks, joinButtonTexts, layoutMenuTexts, leaveConfirmTexts, prejoinInterstitials, rosterListLabel } from './meet-texts';

const byLabel = (label: string, tags = ['button', 'div[role="button"]']): Candidate[] => [...tags.map((t) => ({ selector: `${t}[aria-label="${label}"]` })), { selector: `[aria-label="${label}"]` }];

/** 2.2: the guest lobby's one text input [Attendee; Vexa's order; ScreenApp/MB any text input]. */
export const nameInput: Candidate[] = [
  { selector: 'input[type="text"][aria-label="Your name"]' },
  { selector: 'input[jsname][type="text"]' },
  { selector: 'input[placeholder*="name" i]' },
  { selector: 'input[type="text"]' },
];

/** 2.2: the lobby's toggles are `div` role-buttons, the call's are buttons [MB, Attendee]; the label says what a click does. */
export const microphone = { turnOff: byLabel('Turn off microphone'), isOff: byLabel('Turn on microphone') };
export const camera = { turnOff: byLabel('Turn off camera'), isOff: byLabel('Turn on camera') };

/** 2.2: a `<button>` whose inner span says it [Attendee's XPath]; the span's exact text. */
export const joinButton = (enabledOnly: boolean): Candidate[] =>
  joinButtonTexts.map((text) => ({ selector: enabledOnly ? 'button:not([disabled]):not([aria-disabled="true"]) span' : 'button span', text, exact: true }));

export const interstitials: Candidate[] = prejoinInterstitials.map((text) => ({ selector: 'button, [role="button"], span', text, exact: true }));

/** 2.6, 2.9 */
export const chatButton: Candidate[] = [{ selector: 'button[aria-label="Chat with everyone"]' }, { selector: 'button[aria-label^="Chat with everyone"]' }];
export const chatInputSelectors = ['textarea[aria-label="Send a message"]', 'textarea[placeholder="Send a message"]', 'textarea[aria-label="Send a message to everyone"]'];
export const chatInput: Candidate[] = chatInputSelectors.map((selector) => ({ selector }));

/** 2.6, 2.10 [Attendee adds jsname CQylAd] */
export const leaveButton: Candidate[] = [{ selector: 'button[aria-label="Leave call"][jsname="CQylAd"]' }, { selector: 'button[aria-label="Leave call"]' }];
export const leaveConfirm: Candidate[] = leaveConfirmTexts.map((text) => ({ selector: 'button, [role="button"], [role="menuitem"]', text }));

/** 2.6: "More options" inside the call controls [MB jsname NakZHc]; the lobby's 3-dot button also has a jsname. */
export const moreOptions: Candidate[] = [
  { selector: '[role="region"][aria-label="Call controls"] button[aria-label="More options"]' },
  { selector: 'button[aria-label="More options"][jsname="NakZHc"]' },
  { selector: 'button[aria-label="More options"]' },
];
export const layoutMenuItem: Candidate[] = layoutMenuTexts.map((text) => ({ selector: '[role="menu"] [role="menuitem"]', text }));
export const layoutChoice = (label: string): Candidate[] => [
  { selector: 'label', text: label, exact: true },
  { selector: '[role="radio"]', text: label, exact: true },
  { selector: `[aria-label="${label}"]` },
];
export const closeDialog: Candidate[] = [{ selector: 'button[aria-label="Close dialog"]' }, { selector: 'button[aria-label="Close dialogue"]' }];

/** 2.6: post-admission dialogs and their accept button [Attendee]. */
export const admissionDialog = 'div[aria-modal="true"][role="dialog"]';
export const admissionDialogAccept: Candidate[] = [
  { selector: `${admissionDialog} button[data-mdc-dialog-action="ok"]` },
  { selector: `${admissionDialog} button`, text: 'Got it', exact: true },
  { selector: `${admissionDialog} button`, text: 'Join now', exact: true },
];

/** 2.7, 2.8: tiles carry the participant id, the name in `span.notranslate`, the bot's own tile `[data-self-name]` [Vexa]. */
export const tiles: TileReaderConfig = {
  tile: '[data-participant-id]',
  idAttributes: ['data-participant-id'],
  name: [{ selector: 'span.notranslate' }, { attribute: 'aria-label' }],
  without: effectsTileMarks,
  self: ['[data-self-name]'],
  // 2.8 (2): a semantic audio level, then the known speaking classes (silence is `gjg47c`)
  speaking: ['[data-audio-level]:not([data-audio-level="0"])', '.Oaajhc', '.HX2H7', '.wEsLMd', '.OgVli'],
};

/** 2.9: rows `[data-message-id]` (pin buttons carry it too), sender header before them, text `.jO4O1` [Vexa]. */
export const chat: ChatReaderConfig = {
  row: 'div[data-message-id]',
  text: ['.jO4O1'],
  sender: ['.poVWob'],
  composer: chatInputSelectors,
};

/** 2.6, 2.7: the People button [Attendee, MB; ScreenApp `^="People"` with counts] and its panel's entries, named by aria-label. */
export const peopleButton: Candidate[] = [
  { selector: 'nav button[aria-label="People"]' },
  { selector: 'button[data-panel-id="1"]' },
  { selector: 'button[aria-label^="People"]' },
];
export const rosterList = `div[role="list"][aria-label="${rosterListLabel}"]`;
export const roster: RosterReaderConfig = { item: `${rosterList} [role="listitem"]`, name: [{ attribute: 'aria-label' }] };
/** How many are in the call, where the page says it (ScreenApp #40: `[data-avatar-count]` in the new UI). */
export const headCount: HeadCountConfig = { attribute: { selector: '[data-avatar-count]', name: 'data-avatar-count' }, label: { selector: 'button[aria-label^="People"]', pattern: String.raw`(\d+)` } };

/** What text scans never read: the chat, and people's names (a participant called "Call ended" must not end the bot). */
export const unreadSubtrees = ['[data-message-id]', '.poVWob', 'textarea', tiles.tile, 'div[role="list"][aria-label="Participants"]'];

/** Names in the page, for redacting diagnostics (2.7). */
export const nameElements = ['span.notranslate', 'div[role="listitem"][aria-label]', '.poVWob'];
export const nameAttributes = ['data-self-name'];
