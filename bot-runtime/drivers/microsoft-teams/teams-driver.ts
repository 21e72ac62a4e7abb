/**
 * The Microsoft Teams driver: reads Teams' page by the rules of teams-states.ts and the candidates of
 * teams-selectors.ts, and acts on it like an anonymous guest: past the launcher ("Continue on this
 * browser") and the AV-confirm modal (before the pre-join, or only after "Join now"), types its name,
 * turns camera and microphone off (on when the bot brings its own picture or voice), keeps computer audio (to hear the meeting), joins; in the call it
 * opens the chat panel and keeps it open, picks the layout, chats and leaves.
 *
 * Teams' tiles carry the display name, not a participant id (3.5): a participant's id here is their
 * name without Teams' "(Unverified)"/"(Guest)"/"(External)" suffix, and the bot's own tile is the one
 * with its name. Participants come from the tiles and the roster (the People pane), which lists
 * everyone when the layout shows one tile; the rail shows one pane at a time, so the People pane is
 * opened for a moment when the roster is due (roster-watch.ts), then the chat again. The chat is
 * typed through CKEditor's own input path (inserted text, Shift+Enter between lines): CKEditor
 * renders from its model and undoes a script that sets `innerText`. Actions run one at a time.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../../bot-log';
import type { RecordingMode } from '../../../contract/bot-contract';
import { countOwnMessages, DriverActions } from '../driver-actions';
import { redactedHtmlExpression } from '../in-page/redacted-html';
import { rosterExpression, type RosterRead } from '../in-page/roster';
import { normaliseText, type ScanResult } from '../in-page/state-scan';
import { tilesAndChatExpression, type TilesAndChat } from '../in-page/tiles-and-chat';
import { clickElement, describeCandidate, findFirst, type Found } from '../page-actions';
import { noOwnMedia, type ChatControls, type OwnMedia, type PageDriver, type PageExplanation, type PageSnapshot } from '../page-driver';
import { PageReading } from '../page-reading';
import { RosterPanel } from '../roster-panel';
import { RosterWatch } from '../roster-watch';
import { blueOutlineSpeakerExpression } from './teams-in-page';
import * as sel from './teams-selectors';
import { teamsScan } from './teams-states';
import { nameSuffixes } from './teams-texts';
import { botRealm } from '../bot-realm';

/**
 * The note gives no length limit for Teams chat messages; the sandbox's replica takes 4096 characters
 * (sandbox/meeting-state.ts), and longer messages go in parts.
 */
const TEAMS_CHAT_LIMIT = 4000;
/** how long the launcher and the AV-confirm modal may take to give way to the pre-join */
const PREJOIN_WAIT_MS = 15_000;
/** how long the join click may take to show its outcome (the AV-confirm modal comes right after it) */
const AFTER_JOIN_MS = 10_000;

/** A display name without Teams' suffixes for anonymous and outside people. */
export const teamsDisplayName = (name: string): string => {
  let clean = name.replace(/\s+/g, ' ').trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of nameSuffixes) {
      if (clean.toLowerCase().endsWith(suffix.toLowerCase())) {
        clean = clean.slice(0, -suffix.length).trim();
        changed = true;
      }
    }
  }
  return clean;
};

interface TeamsRead {
  readonly data: TilesAndChat;
  readonly roster: RosterRead;
  readonly blueSpeaker: string | null;
  readonly chatOff: boolean;
}

export class TeamsDriver implements PageDriver {
  readonly name = 'microsoft-teams';
  readonly chat: ChatControls;
  private readonly actions: DriverActions;
  /** the name the bot joined with: its own tile and messages carry it */
  private botName: string | null = null;
  private readonly reading: PageReading;
  private readonly roster: RosterPanel;

  constructor(
    private readonly page: Page,
    private readonly log: BotLog,
  ) {
    this.actions = new DriverActions(this.name, page, log);
    this.reading = new PageReading(page, teamsScan);
    this.roster = new RosterPanel(this.name, page, log, this.actions, this.reading, new RosterWatch(), {
      button: sel.peopleButton,
      roster: sel.roster,
      headCount: sel.headCount,
      visibleButton: true,
      name: teamsDisplayName,
      reopen: () => this.openChatPanel(),
    });
    this.chat = {
      maxLength: TEAMS_CHAT_LIMIT,
      disabled: async () => (await this.readPage(Number.MAX_SAFE_INTEGER)).chatDisabled,
      post: (text) => this.actions.exclusive(() => this.postChat(text)),
      // Teams shows no refusal text the peers know of: an unconfirmed message is the only failure
      error: async () => null,
      countOwn: async (selfId, botName, text) => countOwnMessages((await this.readPage(0)).chat, selfId, botName, text),
    };
  }

  read(chatSince: number): Promise<PageSnapshot> {
    return this.readPage(chatSince);
  }

  join(botName: string, own: OwnMedia = noOwnMedia): Promise<void> {
    this.botName = botName;
    return this.actions.exclusive(async () => {
      const input = await this.reachPrejoin();
      if (input) {
        await input.element.click({ clickCount: 3 });
        await input.element.type(botName);
      } else {
        this.log.warn(`${this.name}: no name input (a signed-in pre-join?): joining without typing a name`);
        await this.learnAccountName();
      }
      await this.switchDevice('camera', sel.camera, own.camera);
      await this.switchDevice('microphone', sel.microphone, own.microphone);
      await this.keepComputerAudio();
      const button = await this.actions.waitFor('join button', sel.joinButton(true), 5000);
      if (!button) throw new Error('the join button did not become clickable');
      await clickElement(button.element);
      this.log.info(`${this.name}: asked to join`);
      await this.afterJoinClick();
    });
  }

  /**
   * A signed-in web client joins under its account's name, which its tile and messages carry, not the
   * bot's: read from the title bar's profile card (opened, read, closed), so the bot knows its own tile.
   */
  private async learnAccountName(): Promise<void> {
    const trigger = await findFirst(this.page, sel.meControl, { visible: true, enabled: true });
    if (!trigger) {
      this.log.warn(`${this.name}: no profile button: its own tile is known by the bot's name only`);
      return;
    }
    this.actions.matches.note('profile button', describeCandidate(trigger.candidate));
    await clickElement(trigger.element);
    const shown = await this.actions.waitFor('account name', sel.meControlName, 3000);
    const name = shown ? normaliseText(await shown.element.evaluate((el) => el.textContent ?? '')) : '';
    await this.page.keyboard.press('Escape').catch(() => undefined);
    if (!name) {
      this.log.warn(`${this.name}: the profile card named no account: its own tile is known by the bot's name only`);
      return;
    }
    this.botName = name;
    this.log.info(`${this.name}: signed in as the account shown in the profile card; its tile carries that name`);
  }

  prepareCall(): Promise<void> {
    return this.actions.exclusive(async () => {
      await this.roster.read();
      await this.openChatPanel();
    });
  }

  explain(): Promise<PageExplanation> {
    return this.reading.explain();
  }

  setLayout(mode: RecordingMode): Promise<void> {
    if (mode === 'audio_only') return Promise.resolve();
    const [label, layout] = mode === 'gallery_view' ? ['gallery', sel.galleryLayout] : ['speaker', sel.speakerLayout];
    return this.actions.exclusive(async () => {
      let view = await findFirst(this.page, sel.viewButton, { visible: true });
      if (!view) {
        // the view switcher may sit under "More"
        const more = await this.actions.waitFor('more button', sel.moreButton, 1000);
        if (more) await clickElement(more.element);
        view = await this.actions.waitFor('view button', sel.viewButton, 1000);
      } else this.actions.matches.note('view button', describeCandidate(view.candidate));
      if (!view) {
        this.log.warn(`${this.name}: layout ${label} not set: no view button`);
        await this.page.keyboard.press('Escape').catch(() => undefined);
        return;
      }
      await clickElement(view.element);
      const choice = await this.actions.waitFor(`layout ${label}`, layout, 3000);
      if (!choice) {
        this.log.warn(`${this.name}: layout ${label} not set: no ${label} choice in the view menu`);
        await this.page.keyboard.press('Escape').catch(() => undefined);
        return;
      }
      await clickElement(choice.element);
      this.log.info(`${this.name}: layout ${label} for ${mode}`);
    });
  }

  async requestRecording(): Promise<void> {
    // Teams asks nobody for a recording permission
  }

  leaveCall(timeoutMs = 3000): Promise<boolean> {
    return this.actions.exclusive(async () => {
      const inCall = async () => (await this.read(Number.MAX_SAFE_INTEGER)).screen === 'in_call';
      return this.actions.leaveBy('hang-up button', sel.hangUp, sel.leaveConfirm, inCall, timeoutMs, { visible: true });
    });
  }

  async redactedHtml(names: readonly string[]): Promise<string> {
    // tile names are attributes (`data-tid`, which elsewhere names controls): collected here, not by attribute
    const { frame } = await this.reading.scan();
    const tileNames = (await botRealm(frame).evaluate(
      `Array.from(document.querySelectorAll(${JSON.stringify(sel.tiles.tile)})).map((t) => t.getAttribute('data-tid'))`,
    )) as string[];
    const all = [...names, ...tileNames.flatMap((n) => [n, teamsDisplayName(n)])];
    const chat = [sel.chat.row, '[data-tid="chat-pane-list"]', ...sel.composerSelectors];
    return (await botRealm(frame).evaluate(redactedHtmlExpression({ chat, nameElements: sel.nameElements, nameAttributes: [], names: all }))) as string;
  }

  // ---------------------------------------------------------------------------------------------

  private async readPage(chatSince: number): Promise<PageSnapshot> {
    const { result: scan, frame } = await this.reading.scan();
    const { data, roster, blueSpeaker, chatOff } = (await botRealm(frame).evaluate(
      `({ data: ${tilesAndChatExpression(sel.tiles, sel.chat, chatSince)}, roster: ${rosterExpression(sel.roster, sel.headCount)}, ` +
        `blueSpeaker: ${blueOutlineSpeakerExpression(sel.tiles.tile, sel.speakingOutline, 'data-tid')}, ` +
        `chatOff: !!document.querySelector(${JSON.stringify(sel.chatDisabledMark)}) })`,
    )) as TeamsRead;
    this.actions.matches.noteAll(data.matched);
    const now = Date.now();
    this.roster.watch.note(this.roster.names(roster), now);
    if (roster.names) this.actions.matches.note('roster', sel.roster.item);
    let speaker = data.activeSpeaker;
    if (speaker === null && blueSpeaker !== null) {
      speaker = blueSpeaker;
      this.actions.matches.note('speaking', `${sel.speakingOutline}::before blue border`);
    }
    // ids are names without suffixes; the roster adds those no tile shows
    const onTiles = data.participants.map((p) => ({ id: teamsDisplayName(p.name), name: teamsDisplayName(p.name) }));
    if (scan.screen === 'in_call' && this.roster.watch.due(now, onTiles.map((p) => p.name), roster.headCount)) this.roster.soon();
    const participants = scan.screen === 'in_call' ? this.roster.watch.merge(onTiles, (name) => name) : onTiles;
    // a chat sender is a participant when exactly one has that name
    const byName = (name: string) => {
      const same = participants.filter((p) => normaliseText(p.name) === normaliseText(name));
      return same.length === 1 ? same[0]!.id : null;
    };
    const chat = data.chat.map((m) => {
      const name = teamsDisplayName(m.sender_name);
      return { sender_name: name, participant_id: byName(name), text: m.text };
    });
    return {
      ...withoutRuleIndex(scan),
      selfId: this.botName === null ? null : byName(this.botName),
      participants,
      activeSpeaker: speaker === null ? null : teamsDisplayName(speaker),
      chat,
      chatDisabled: data.chatDisabled || chatOff,
      recordingPermission: null,
    };
  }

  /**
   * From the launcher or an AV-confirm modal to the pre-join's name input: clicks the launcher's
   * "Continue on this browser" and the modal's "Continue without audio or video" as they show.
   * Null when no name input showed (a pre-join without one), once the join button is there.
   */
  private async reachPrejoin(): Promise<Found | null> {
    const deadline = Date.now() + PREJOIN_WAIT_MS;
    for (;;) {
      // the launcher navigates to the web client: a look at the page may meet the old document going away
      const input = await duringNavigation(async () => {
        await this.actions.clickAway('AV-confirm modal', sel.avConfirm);
        const launcher = await findFirst(this.page, sel.launcherButton, { visible: true, enabled: true });
        if (launcher) {
          this.actions.matches.note('launcher button', describeCandidate(launcher.candidate));
          await clickElement(launcher.element);
          this.log.info(`${this.name}: continued on this browser`);
          return null;
        }
        return findFirst(this.page, sel.nameInput, { visible: true, enabled: true });
      });
      if (input) {
        this.actions.matches.note('name input', describeCandidate(input.candidate));
        return input;
      }
      // A signed-in pre-join has no name input and its join button is ready at once (a guest's waits for a name).
      if (await duringNavigation(() => findFirst(this.page, sel.joinButton(true), { visible: true, enabled: true }))) {
        this.log.info(`${this.name}: no name input and the join button is ready: a signed-in pre-join`);
        return null;
      }
      if (Date.now() >= deadline) {
        if (await findFirst(this.page, sel.joinButton(false), { visible: true })) return null;
        throw new Error(`the pre-join page did not show within ${PREJOIN_WAIT_MS / 1000} s`);
      }
      await sleep(200);
    }
  }

  /** A switch (or a button saying what a click does) in the other state is clicked, and checked to be `on`. */
  private async switchDevice(what: string, device: sel.DeviceSwitch, on: boolean): Promise<void> {
    const toggle = await findFirst(this.page, device.switch, { visible: true });
    if (toggle) {
      const state = on ? 'on' : 'off';
      this.actions.matches.note(`${what} switch`, describeCandidate(toggle.candidate));
      if ((await isOn(toggle)) === on) {
        this.log.info(`${this.name}: ${what} already ${state}`);
        return;
      }
      await clickElement(toggle.element);
      const deadline = Date.now() + 2000;
      while ((await isOn(toggle)) !== on && Date.now() < deadline) await sleep(100);
      if ((await isOn(toggle)) !== on) this.log.warn(`${this.name}: the ${what} switch did not turn ${state}`);
      else this.log.info(`${this.name}: ${what} ${state}`);
      return;
    }
    await this.actions.switchTo(what, device, on);
  }

  private async keepComputerAudio(): Promise<void> {
    const radio = await findFirst(this.page, sel.computerAudioRadio, { visible: true });
    if (!radio) return;
    this.actions.matches.note('computer audio choice', describeCandidate(radio.candidate));
    if ((await radio.element.evaluate((e) => e.getAttribute('aria-checked'))) === 'true') return;
    await clickElement(radio.element);
    this.log.info(`${this.name}: computer audio chosen`);
  }

  /**
   * After the join click: the AV-confirm modal may come now (Vexa #467), with "Join now" still behind
   * it; it is answered until the join button is gone or disabled (the lobby keeps it disabled).
   */
  private async afterJoinClick(): Promise<void> {
    const deadline = Date.now() + AFTER_JOIN_MS;
    while (Date.now() < deadline) {
      const joinShows = await duringNavigation(async () => {
        await this.actions.clickAway('AV-confirm modal', sel.avConfirm);
        return (await findFirst(this.page, sel.joinButton(true), { visible: true, enabled: true })) !== null;
      });
      // gone (or disabled in the lobby), or the page went elsewhere (a sign-in page): the reads take it from here
      if (joinShows === false) return;
      await sleep(200);
    }
  }

  private openChatPanel(): Promise<Found | null> {
    return this.actions.openPanel({ input: sel.composer, toggle: sel.chatButton, inputName: 'chat composer', toggleName: 'chat button' }, { visible: true });
  }

  private async postChat(text: string): Promise<void> {
    const input = await this.openChatPanel();
    if (!input) throw new Error('the chat panel could not be opened');
    // CKEditor's own input path (3.6: it keeps a model of its own, MB writes through it): inserted text, Shift+Enter between lines
    await this.actions.insertText(input.element, text, 'shift_enter');
    const send = await findFirst(this.page, sel.sendButton, { visible: true, enabled: true });
    if (send) {
      this.actions.matches.note('send button', describeCandidate(send.candidate));
      await clickElement(send.element);
    } else await input.element.press('Enter');
  }
}

/** A scan's screen, wall, evidence and notice (the rule's index is the scanner's business). */
const withoutRuleIndex = ({ screen, wall, evidence, notice }: ScanResult) => ({ screen, wall, evidence, notice });

/** `work`'s result, or null when the page navigated away under it (the next look sees the new page). */
const duringNavigation = async <T>(work: () => Promise<T>): Promise<T | null> => {
  try {
    return await work();
  } catch (err) {
    if (/context was destroyed|Cannot find context|detached|navigat/i.test((err as Error).message)) return null;
    throw err;
  }
};

/** A switch's state: `checked` on an input, else `aria-checked`. */
const isOn = async (toggle: Found): Promise<boolean> =>
  toggle.element.evaluate((e) => (e instanceof HTMLInputElement ? e.checked : e.getAttribute('aria-checked') === 'true'));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
