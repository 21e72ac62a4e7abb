/**
 * The Zoom web client driver: reads the page by the rules of zoom-states.ts and the candidates of
 * zoom-selectors.ts, and acts like a guest. Before the form it follows the launch page's "Join from
 * your browser", accepts consent layers and allows the media prompt (without it Zoom never creates
 * participant audio, 4.2); it types its name with real keys (Zoom's Join stays disabled otherwise),
 * mutes and stops video in the preview (unless the bot brings its own voice or picture), and joins.
 * Admitted, it clears popups, joins computer audio (no `<audio>` exists before), mutes again in the
 * footer (Zoom resets the preview's state on join, 4.3; a bot with its own voice stays live), opens the participants pane and the chat (read only while open), and picks the layout.
 * Zoom hides its footer when the pointer rests: the mouse moves before footer buttons are used, and
 * a hidden button is clicked through the DOM.
 *
 * Zoom's error page for a host who has not started never changes by itself: a read that finds it
 * reloads the page every 15 s (Vexa, MB), until the form shows or the waiting-room timeout ends the run.
 *
 * The form may show a passcode field although the link carries the passcode: it is filled from the
 * link's `pwd` (MB zoom.ts). The meeting's sound is heard on `<audio>` streams or, as the modern
 * client plays it, through the Web Audio API (Vexa #318): a tap on the page's AudioContexts is
 * installed before its scripts run. The chat is typed through ProseMirror's own input path.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../../bot-log';
import type { Speakers } from '../../browser/audio-server';
import { speakersOf } from '../../browser/speakers';
import type { RecordingMode } from '../../../contract/bot-contract';
import { countOwnMessages, DriverActions } from '../driver-actions';
import { redactedHtmlExpression } from '../in-page/redacted-html';
import { normaliseText, type ScanResult } from '../in-page/state-scan';
import { tilesAndChatExpression, type TileReaderConfig, type TilesAndChat } from '../in-page/tiles-and-chat';
import { clickElement, describeCandidate, findFirst, waitForFirst, type Candidate, type Found } from '../page-actions';
import { noOwnMedia, type ChatControls, type OwnMedia, type PageDriver, type PageExplanation, type PageSnapshot } from '../page-driver';
import { PageReading } from '../page-reading';
import { zoomPeopleExpression, type ZoomPeople, type ZoomReaderConfig } from './zoom-reader';
import * as sel from './zoom-selectors';
import { hostNotStartedPageRule, zoomScan } from './zoom-states';
import { HOST_NOT_STARTED_RELOAD_MS, nameSuffixPattern, selfMarkPattern } from './zoom-texts';
import { botRealm } from '../bot-realm';

/**
 * The longest message sent at once. The note gives no limit for Zoom's chat; 1000 characters is a
 * cautious choice (longer messages go in parts, each confirmed).
 */
const ZOOM_CHAT_LIMIT = 1000;
/** the main tile's name counts as the speaker while the meeting audio carried sound this recently */
const SPEAKING_GATE_MS = 800;

const people: ZoomReaderConfig = {
  item: sel.participantItem,
  name: sel.participantName,
  suffix: nameSuffixPattern,
  self: selfMarkPattern,
  speaker: sel.speakerName,
};

/** The chat is read with the shared reader; Zoom's pane carries no ids, so its tiles give none (zoom-reader names people). */
const noTiles: TileReaderConfig = { tile: sel.participantItem, idAttributes: [], name: [], without: [], self: [], speaking: [] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ZoomDriver implements PageDriver {
  readonly name = 'zoom';
  readonly chat: ChatControls;
  private readonly actions: DriverActions;
  /** when the host-not-started page was first seen or last reloaded */
  private hostPageSince: number | null = null;
  /** the last main-tile speaker read: a speaker counts once two reads agree (Vexa, MB) */
  private speakerCandidate: string | null = null;
  private lastSpeaker: string | null = null;
  /** what the bot brings (join): its microphone stays live after computer audio is joined */
  private own: OwnMedia = noOwnMedia;
  private readonly reading: PageReading;
  /** what the bot's speakers play, once in the call */
  private speakers: Speakers | null = null;

  constructor(
    private readonly page: Page,
    private readonly log: BotLog,
  ) {
    this.actions = new DriverActions(this.name, page, log);
    this.reading = new PageReading(page, zoomScan);
    this.chat = {
      maxLength: ZOOM_CHAT_LIMIT,
      disabled: async () => (await this.readChat(Number.MAX_SAFE_INTEGER)).chatDisabled,
      post: (text) => this.actions.exclusive(() => this.postChat(text)),
      // the note records no refusal text for Zoom's chat: an unconfirmed message is the failure
      error: async () => null,
      countOwn: (selfId, botName, text) => this.countOwn(selfId, botName, text),
    };
  }

  async read(chatSince: number): Promise<PageSnapshot> {
    const { result: scan, frame } = await this.reading.scan();
    const [chat, seen] = (await botRealm(frame).evaluate(`[${tilesAndChatExpression(noTiles, sel.chat, chatSince)}, ${zoomPeopleExpression(people)}]`)) as [TilesAndChat, ZoomPeople];
    this.actions.matches.noteAll({ ...chat.matched, ...seen.matched });
    this.reloadWhileHostAbsent(scan);
    if (scan.screen === 'in_call') this.listen();
    return {
      screen: scan.screen,
      wall: scan.wall,
      evidence: scan.evidence,
      notice: scan.notice,
      selfId: seen.selfId,
      participants: seen.participants,
      activeSpeaker: this.speaker(seen),
      chat: withIds(chat.chat, seen),
      chatDisabled: chat.chatDisabled,
      recordingPermission: null,
    };
  }

  join(botName: string, own: OwnMedia = noOwnMedia): Promise<void> {
    this.own = own;
    return this.actions.exclusive(async () => {
      const input = await this.reachForm();
      await this.fillPasscode();
      // real keys: Zoom's Join stays disabled after a programmatic value (4.3)
      await input.element.click({ clickCount: 3 });
      await input.element.type(botName);
      await this.actions.switchTo('microphone', sel.previewMicrophone, own.microphone);
      await this.actions.switchTo('camera', sel.previewCamera, own.camera);
      const button = await this.actions.waitFor('join button', sel.enabledJoinButton, 5000);
      if (!button) throw new Error('the join button stayed disabled');
      await clickElement(button.element);
      this.log.info(`${this.name}: asked to join`);
    });
  }

  explain(): Promise<PageExplanation> {
    return this.reading.explain();
  }

  prepareCall(): Promise<void> {
    return this.actions.exclusive(async () => {
      // an end modal shares the popups' `.zm-modal` and OK: popups are cleared only while the page shows the call
      await this.actions.clickAway('popup', sel.popupButtons, 3, async () => (await this.scan()).screen === 'in_call');
      await this.joinComputerAudio();
      await this.openPane('participants pane', sel.participantsButton, [{ selector: sel.participantsList }]);
      await this.openPane('chat panel', sel.chatButton, sel.chatComposer);
    });
  }

  setLayout(mode: RecordingMode): Promise<void> {
    if (mode === 'audio_only') return Promise.resolve();
    const choice = mode === 'gallery_view' ? sel.galleryViewChoice : sel.speakerViewChoice;
    return this.actions.exclusive(async () => {
      await this.wakeFooter();
      const view = await findFirst(this.page, sel.viewButton, { visible: true });
      if (view) {
        this.actions.matches.note('view button', describeCandidate(view.candidate));
        await clickElement(view.element);
      }
      const found = await this.actions.waitFor(`${mode} choice`, choice, 3000);
      if (!found) {
        this.log.warn(`${this.name}: layout for ${mode} not set: ${view ? 'no such view in the menu' : 'no View button'}`);
        await this.page.keyboard.press('Escape').catch(() => undefined);
        return;
      }
      await clickElement(found.element);
      this.log.info(`${this.name}: layout "${found.candidate.text ?? found.candidate.selector}" for ${mode}`);
    });
  }

  async requestRecording(): Promise<void> {
    // the web client asks nobody: the bot records its own tab (family.ts)
  }

  leaveCall(timeoutMs = 3000): Promise<boolean> {
    return this.actions.exclusive(async () => {
      await this.wakeFooter();
      const inCall = async () => (await this.read(Number.MAX_SAFE_INTEGER).catch(() => null))?.screen === 'in_call';
      // the dialog's button has no label and Enter cancels the dialog (4.6): a click, through the DOM
      return this.actions.leaveBy('leave button', sel.leaveButton, sel.leaveConfirm, inCall, timeoutMs, { confirmWaitMs: 1000, domClickConfirm: true });
    });
  }

  async redactedHtml(names: readonly string[]): Promise<string> {
    const chat = [...sel.chatListSelectors, ...sel.chat.composer, sel.chat.row];
    const { frame } = await this.reading.scan();
    return (await botRealm(frame).evaluate(redactedHtmlExpression({ chat, nameElements: sel.nameElements, nameAttributes: [], names }))) as string;
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * From wherever the page starts (the launch page, consent layers, the media prompt) to the name
   * field; throws when it does not show within 15 s.
   */
  private async reachForm(): Promise<Found> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const input = await findFirst(this.page, sel.nameInput, { visible: true, enabled: true });
      const blocked = input && (await this.coveredByConsent());
      if (input && !blocked) {
        this.actions.matches.note('name input', describeCandidate(input.candidate));
        return input;
      }
      const launch = await findFirst(this.page, sel.joinFromBrowser, { visible: true });
      if (launch) {
        this.log.info(`${this.name}: launch page: "${launch.candidate.text}"`);
        await Promise.all([this.page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 10_000 }).catch(() => undefined), clickElement(launch.element)]);
        continue;
      }
      if (await this.actions.clickAway('media prompt', sel.permissionAllow, 1)) continue;
      if (await this.actions.clickAway('consent layer', sel.consentButtons, 1)) continue;
      await sleep(200);
    }
    throw new Error('the pre-join form did not show');
  }

  /**
   * A passcode field with nothing in it: the link's passcode typed in (Zoom may show the field although
   * the link carries it; MB fills it from `pwd`, or the `password` some portals use). Without one in
   * the link, Join would stay disabled for ever: the join fails at once, saying so.
   */
  private async fillPasscode(): Promise<void> {
    const field = await findFirst(this.page, sel.passcodeInput, { visible: true });
    if (!field || (await field.element.evaluate((e) => (e as HTMLInputElement).value))) return;
    const url = new URL(this.page.url());
    const fromLink = url.searchParams.get('pwd') ?? url.searchParams.get('password');
    if (!fromLink) throw new Error('the meeting asks for a passcode the link does not carry');
    this.actions.matches.note('passcode field', describeCandidate(field.candidate));
    await field.element.click({ clickCount: 3 });
    await field.element.type(fromLink);
    this.log.info(`${this.name}: a passcode field although the link carries one: filled from the link`);
  }

  /** OneTrust's banner lies over the classic form and takes its clicks (4.2). */
  private async coveredByConsent(): Promise<boolean> {
    return (await findFirst(this.page, sel.consentButtons.slice(0, 3), { visible: true })) !== null;
  }

  /** Computer audio, then the microphone muted again (Zoom resets the preview's state on join). */
  private async joinComputerAudio(): Promise<void> {
    const muted = () => findFirst(this.page, sel.footerMicrophone.isOff);
    const live = () => findFirst(this.page, sel.footerMicrophone.turnOff);
    if (!(await muted()) && !(await live())) {
      await this.wakeFooter();
      const join = await findFirst(this.page, sel.joinAudio);
      if (!join) {
        this.log.warn(`${this.name}: no way to join computer audio: the meeting will not be heard`);
        return;
      }
      this.actions.matches.note('join audio', describeCandidate(join.candidate));
      await clickElement(join.element);
      if (!(await waitForFirst(this.page, [...sel.footerMicrophone.turnOff, ...sel.footerMicrophone.isOff], 3000))) {
        this.log.warn(`${this.name}: computer audio did not join`);
        return;
      }
      this.log.info(`${this.name}: computer audio joined`);
    }
    await this.wakeFooter();
    await this.actions.switchTo('footer microphone', sel.footerMicrophone, this.own.microphone, false);
  }

  /** Opens a pane by its toggle unless what it shows is there already. */
  private openPane(what: string, toggle: readonly Candidate[], content: readonly Candidate[]): Promise<Found | null> {
    return this.actions.openPanel({ input: content, toggle, inputName: what, toggleName: `${what} toggle` }, { beforeToggle: () => this.wakeFooter() });
  }

  private async postChat(text: string): Promise<void> {
    const composer = await this.openPane('chat panel', sel.chatButton, sel.chatComposer);
    if (!composer) throw new Error('the chat panel could not be opened');
    // ProseMirror's own input path: inserted text, Shift+Enter between lines (Enter sends)
    await this.actions.insertText(composer.element, text, 'shift_enter');
    const send = await findFirst(this.page, sel.chatSend, { visible: true, enabled: true });
    if (send) await clickElement(send.element);
    else await composer.element.press('Enter');
  }

  private async countOwn(selfId: string | null, botName: string, text: string): Promise<number> {
    const { frame } = await this.reading.scan();
    const [chat, seen] = (await botRealm(frame).evaluate(`[${tilesAndChatExpression(noTiles, sel.chat, 0)}, ${zoomPeopleExpression(people)}]`)) as [TilesAndChat, ZoomPeople];
    return countOwnMessages(withIds(chat.chat, seen), selfId, botName, text);
  }

  private async scan(): Promise<ScanResult> {
    return (await this.reading.scan()).result;
  }

  private async readChat(since: number): Promise<TilesAndChat> {
    const { frame } = await this.reading.scan();
    return (await botRealm(frame).evaluate(tilesAndChatExpression(noTiles, sel.chat, since))) as TilesAndChat;
  }

  /** The main tile's name, while the meeting audio carries sound and two reads agree. */
  /** From the first read of the call: the meeting's sound, from the bot's speakers (the page may play it through Web Audio only). */
  private listen(): void {
    if (this.speakers !== null) return;
    const speakers = speakersOf(this.page);
    if (!speakers) this.log.warn(`${this.name}: the meeting's sound cannot be heard (a browser without the bot's sound server): nobody counts as speaking`);
    this.speakers = speakers ?? { msSinceSound: () => null };
  }

  private speaker(seen: ZoomPeople): string | null {
    const msSinceSound = this.speakers?.msSinceSound() ?? null;
    const sounding = msSinceSound !== null && msSinceSound < SPEAKING_GATE_MS;
    const candidate = sounding ? seen.mainTileName : null;
    const agreed = candidate !== null && candidate === this.speakerCandidate ? candidate : null;
    this.speakerCandidate = candidate;
    // said when it changes: a speaker Zoom's DOM does not mark can only be told by the sound (4.5)
    if (agreed !== this.lastSpeaker) this.log.info(`${this.name}: ${agreed === null ? 'nobody speaks' : `${agreed} speaks (the main tile, while the meeting's audio sounds)`}`);
    this.lastSpeaker = agreed;
    return agreed;
  }

  private reloadWhileHostAbsent(scan: ScanResult): void {
    const onHostPage = scan.screen === hostNotStartedPageRule.screen && hostNotStartedPageRule.any.some((c) => 'text' in c && scan.evidence?.includes(`"${c.text}"`));
    if (!onHostPage) {
      this.hostPageSince = null;
      return;
    }
    const now = Date.now();
    this.hostPageSince ??= now;
    if (now - this.hostPageSince < HOST_NOT_STARTED_RELOAD_MS) return;
    this.hostPageSince = now;
    this.log.info(`${this.name}: the host has not started: reloading`);
    // not awaited: the run keeps reading (reads fail while the page navigates, and are retried)
    this.page.reload({ waitUntil: 'domcontentloaded' }).catch((err) => this.log.warn(`${this.name}: reload: ${(err as Error).message}`));
  }

  /** Zoom shows the footer again when the pointer moves. */
  private async wakeFooter(): Promise<void> {
    const viewport = this.page.viewport() ?? { width: 1280, height: 720 };
    await this.page.mouse.move(viewport.width / 2, viewport.height - 40).catch(() => undefined);
    await this.page.mouse.move(viewport.width / 2 + 10, viewport.height - 30).catch(() => undefined);
  }
}

/** Senders get the id of the one participant of that name (names are Zoom's only ids). */
const withIds = (messages: TilesAndChat['chat'], seen: ZoomPeople): TilesAndChat['chat'] => {
  const byName = new Map<string, string | null>();
  for (const p of seen.participants) {
    const key = normaliseText(p.name);
    byName.set(key, byName.has(key) ? null : p.id);
  }
  return messages.map((m) => ({ ...m, participant_id: byName.get(normaliseText(m.sender_name)) ?? null }));
};
