/**
 * The Google Meet driver: reads Meet's page by the rules of meet-states.ts and the candidates of
 * meet-selectors.ts, and acts on it like a guest: types its name, turns microphone and camera off
 * (on when the bot brings its own voice or picture: Meet keeps the pre-join state in the call), asks
 * to join; in the call it accepts recording notices, keeps the chat panel open (Meet shows messages
 * only while it is), picks the layout, chats and leaves. Actions run one at a time (two
 * clicks on the chat button would close the panel again). Meet hides its toolbar when the pointer
 * rests, so the mouse moves before toolbar buttons are used.
 *
 * Participants come from the tiles and the roster (the People panel): a spotlight layout renders one
 * tile while the roster lists everyone. Meet shows one side panel at a time, so the People panel is
 * opened for a moment when the roster is due (roster-watch.ts), then the chat again. The chat is
 * typed through the editor's own input path (text inserted as typing would), not set as a value: a
 * controlled textarea ignores a value set by script.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../../bot-log';
import type { RecordingMode } from '../../../contract/bot-contract';
import { countOwnMessages, DriverActions } from '../driver-actions';
import { redactedHtmlExpression } from '../in-page/redacted-html';
import { rosterExpression, type RosterRead } from '../in-page/roster';
import { RosterPanel } from '../roster-panel';
import { normaliseText } from '../in-page/state-scan';
import { tilesAndChatExpression, type TilesAndChat } from '../in-page/tiles-and-chat';
import { clickElement, describeCandidate, findFirst, type Candidate, type Found } from '../page-actions';
import { noOwnMedia, type ChatControls, type OwnMedia, type PageDriver, type PageExplanation, type PageSnapshot } from '../page-driver';
import { PageReading } from '../page-reading';
import { ParticipantIds, RosterWatch } from '../roster-watch';
import * as sel from './meet-selectors';
import { meetScan } from './meet-states';
import { admissionNoticeTexts, galleryLayout, speakerLayout } from './meet-texts';
import { botRealm } from '../bot-realm';

/** Meet truncates longer messages (2.9: MB "meet only allows 516"; 500 to be safe). */
const MEET_CHAT_LIMIT = 500;

export class MeetDriver implements PageDriver {
  readonly name = 'google-meet';
  readonly chat: ChatControls;
  private readonly actions: DriverActions;
  private readonly reading: PageReading;
  private readonly roster: RosterPanel;
  private readonly ids = new ParticipantIds();

  constructor(
    private readonly page: Page,
    private readonly log: BotLog,
  ) {
    this.actions = new DriverActions(this.name, page, log);
    this.reading = new PageReading(page, meetScan);
    this.roster = new RosterPanel(this.name, page, log, this.actions, this.reading, new RosterWatch(), {
      button: sel.peopleButton,
      roster: sel.roster,
      headCount: sel.headCount,
      beforeButton: () => this.wakeToolbar(),
      reopen: () => this.openChatPanel(),
    });
    this.chat = {
      maxLength: MEET_CHAT_LIMIT,
      disabled: async () => (await this.readTilesAndChat(Number.MAX_SAFE_INTEGER)).chatDisabled,
      post: (text) => this.actions.exclusive(() => this.postChat(text)),
      // Meet shows no refusal text the peers know of: an unconfirmed message is the only failure
      error: async () => null,
      countOwn: async (selfId, botName, text) => countOwnMessages((await this.readTilesAndChat(0)).chat, selfId, botName, text),
    };
  }

  async read(chatSince: number): Promise<PageSnapshot> {
    const { result: scan, frame } = await this.reading.scan();
    const [data, roster] = (await botRealm(frame).evaluate(`[${tilesAndChatExpression(sel.tiles, sel.chat, chatSince)}, ${rosterExpression(sel.roster, sel.headCount)}]`)) as [TilesAndChat, RosterRead];
    this.actions.matches.noteAll(data.matched);
    const now = Date.now();
    this.roster.watch.note(this.roster.names(roster), now);
    if (roster.names) this.actions.matches.note('roster', sel.roster.item);
    const { selfId, participants, chat, activeSpeaker, chatDisabled } = this.withStableIds(data);
    if (scan.screen === 'in_call' && this.roster.watch.due(now, participants.map((p) => p.name), roster.headCount)) this.roster.soon();
    const { evidence, notice, wall, screen } = scan;
    return {
      screen,
      evidence,
      notice,
      wall,
      selfId,
      participants: scan.screen === 'in_call' ? this.roster.watch.merge(participants, (name) => this.ids.of(name, null)) : participants,
      activeSpeaker,
      chatDisabled,
      chat,
      recordingPermission: null,
    };
  }

  explain(): Promise<PageExplanation> {
    return this.reading.explain();
  }

  join(botName: string, own: OwnMedia = noOwnMedia): Promise<void> {
    return this.actions.exclusive(async () => {
      await this.actions.clickAway('pre-join interstitial', sel.interstitials);
      // A signed-in browser's pre-join has no name to type (the account's name is used): its join button is ready as it is.
      const input = await this.nameInputOrSignedIn();
      if (input === 'signed_in') this.log.info(`${this.name}: no name input, the join button is ready: a signed-in pre-join`);
      else {
        await input.element.click({ clickCount: 3 });
        await input.element.type(botName);
      }
      await this.actions.switchTo('microphone', sel.microphone, own.microphone);
      await this.actions.switchTo('camera', sel.camera, own.camera);
      // the button may stay disabled until the name is typed
      const button = await this.actions.waitFor('join button', sel.joinButton(true), 5000);
      if (!button) throw new Error('the join button did not become clickable');
      await clickElement(button.element);
      this.log.info(`${this.name}: asked to join ("${button.candidate.text}")`);
    });
  }

  /** Within 10 s: the name input, or, on a signed-in pre-join, a join button that is clickable without one. */
  private async nameInputOrSignedIn(): Promise<Found | 'signed_in'> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const input = await findFirst(this.page, sel.nameInput, { visible: true, enabled: true });
      if (input) {
        this.actions.matches.note('name input', describeCandidate(input.candidate));
        return input;
      }
      if (await findFirst(this.page, sel.joinButton(true), { visible: true })) return 'signed_in';
      if (Date.now() >= deadline) throw new Error('the pre-join page has no name input');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  prepareCall(): Promise<void> {
    return this.actions.exclusive(async () => {
      await this.acceptAdmissionNotices();
      await this.roster.read();
      await this.openChatPanel();
    });
  }

  setLayout(mode: RecordingMode): Promise<void> {
    if (mode === 'audio_only') return Promise.resolve();
    const layout = mode === 'gallery_view' ? galleryLayout : speakerLayout;
    return this.actions.exclusive(async () => {
      const steps: [string, Candidate[]][] = [
        ['more options', sel.moreOptions],
        ['layout menu item', sel.layoutMenuItem],
        [`layout ${layout}`, sel.layoutChoice(layout)],
      ];
      for (const [what, candidates] of steps) {
        await this.wakeToolbar();
        const found = await this.actions.waitFor(what, candidates, 3000);
        if (!found) {
          this.log.warn(`${this.name}: layout ${layout} not set: no ${what}`);
          await this.page.keyboard.press('Escape').catch(() => undefined);
          return;
        }
        await clickElement(found.element);
      }
      const close = await this.actions.waitFor('close dialog', sel.closeDialog, 1000);
      if (close) await clickElement(close.element);
      this.log.info(`${this.name}: layout ${layout} for ${mode}`);
    });
  }

  async requestRecording(): Promise<void> {
    // Meet asks nobody for a recording permission
  }

  leaveCall(timeoutMs = 3000): Promise<boolean> {
    return this.actions.exclusive(async () => {
      await this.wakeToolbar();
      const inCall = async () => (await this.read(Number.MAX_SAFE_INTEGER)).screen === 'in_call';
      return this.actions.leaveBy('leave button', sel.leaveButton, sel.leaveConfirm, inCall, timeoutMs);
    });
  }

  async redactedHtml(names: readonly string[]): Promise<string> {
    const chat = [sel.chat.row, ...sel.chat.sender, 'textarea'];
    const { frame } = await this.reading.scan();
    return (await botRealm(frame).evaluate(redactedHtmlExpression({ chat, nameElements: sel.nameElements, nameAttributes: sel.nameAttributes, names }))) as string;
  }

  // ---------------------------------------------------------------------------------------------

  /** Recording and transcription notices get their OK; other dialogs (Gemini's consent) are left to people. */
  private async acceptAdmissionNotices(): Promise<void> {
    const notice = (await botRealm(this.page).evaluate(
      `Array.from(document.querySelectorAll(${JSON.stringify(sel.admissionDialog)})).some((d) => ${JSON.stringify(admissionNoticeTexts.map(normaliseText))}.some((t) => (d.textContent || '').replace(/[\u2018\u2019]/g, "'").replace(/\\s+/g, ' ').toLowerCase().includes(t)))`,
    )) as boolean;
    if (!notice) return;
    const accept = await this.actions.waitFor('notice accept button', sel.admissionDialogAccept, 1000);
    if (accept) {
      await clickElement(accept.element);
      this.log.info(`${this.name}: admission notice accepted`);
    }
  }

  private openChatPanel(): Promise<Found | null> {
    return this.actions.openPanel({ input: sel.chatInput, toggle: sel.chatButton, inputName: 'chat input', toggleName: 'chat button' }, { beforeToggle: () => this.wakeToolbar() });
  }

  private async postChat(text: string): Promise<void> {
    const input = await this.openChatPanel();
    if (!input) throw new Error('the chat panel could not be opened');
    // inserted as typing inserts text (long messages are not typed key by key); a textarea takes new lines as they are
    await this.actions.insertText(input.element, text, 'as_text');
    await input.element.press('Enter');
  }

  private async readTilesAndChat(since: number): Promise<TilesAndChat> {
    const { frame } = await this.reading.scan();
    return this.withStableIds((await botRealm(frame).evaluate(tilesAndChatExpression(sel.tiles, sel.chat, since))) as TilesAndChat);
  }

  /** Tile ids, the bot's id and chat senders' ids through the map that keeps roster and tiles one participant. */
  private withStableIds(data: TilesAndChat): TilesAndChat {
    const tileIds = new Map(data.participants.map((p) => [p.id, p.name]));
    const participants = data.participants.map((p) => ({ id: this.ids.of(p.name, p.id), name: p.name }));
    const selfId = data.selfId === null ? null : this.ids.of(tileIds.get(data.selfId) ?? '', data.selfId);
    const chat = data.chat.map((m) => ({ ...m, participant_id: m.participant_id === null ? null : this.ids.of(m.sender_name, m.participant_id) }));
    return { ...data, participants, selfId, chat };
  }

  /** Meet hides its toolbar while the pointer rests; a move brings it back. */
  private async wakeToolbar(): Promise<void> {
    const viewport = this.page.viewport() ?? { width: 1280, height: 720 };
    await this.page.mouse.move(viewport.width / 2, viewport.height / 2).catch(() => undefined);
    await this.page.mouse.move(viewport.width / 2 + 10, viewport.height / 2 + 10).catch(() => undefined);
  }
}

