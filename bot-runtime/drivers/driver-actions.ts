/**
 * What page drivers of real web clients do the same way: one action at a time (two clicks on a panel
 * toggle would close it again), waiting for an element by candidates and logging which one matched,
 * clicking interstitials away, turning a labelled toggle off or on, opening a side panel, leaving by a button,
 * and counting the bot's own chat messages in what a read of the page found.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { SeenChatMessage } from '../chat-log';
import { normaliseText } from './in-page/state-scan';
import { clickElement, describeCandidate, findFirst, MatchLog, waitForFirst, type Candidate, type Found } from './page-actions';

/** A toggle whose label says what a click does: `turnOff` matches it while on, `isOff` once off. */
export interface Toggle {
  readonly turnOff: readonly Candidate[];
  readonly isOff: readonly Candidate[];
}

export interface PanelParts {
  /** what the panel holds that the driver uses (the chat's input), present once it is open */
  readonly input: readonly Candidate[];
  readonly toggle: readonly Candidate[];
  /** names in the log, e.g. `chat input`, `chat button` */
  readonly inputName: string;
  readonly toggleName: string;
}

export interface LeaveOptions {
  /** how long a confirmation may take to show */
  readonly confirmWaitMs?: number;
  /** the leave button must be visible (a toolbar may hide it) */
  readonly visible?: boolean;
  /** click the confirmation through the DOM (where Enter, or a mouse click, would cancel it) */
  readonly domClickConfirm?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class DriverActions {
  readonly matches: MatchLog;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly page: Page,
    private readonly log: BotLog,
  ) {
    this.matches = new MatchLog(name, log);
  }

  /** Runs `action` after the ones queued before it. */
  exclusive<T>(action: () => Promise<T>): Promise<T> {
    const next = this.queue.then(action, action);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A visible, enabled element by candidates within `timeoutMs` (logged), or null. */
  async waitFor(what: string, candidates: readonly Candidate[], timeoutMs: number): Promise<Found | null> {
    const found = await waitForFirst(this.page, candidates, timeoutMs, { visible: true, enabled: true });
    if (found) this.matches.note(what, describeCandidate(found.candidate));
    return found;
  }

  /**
   * Clicks visible interstitials away (a few at most: one may reveal another), each only while
   * `stillWanted` says so; how many it clicked.
   */
  async clickAway(what: string, candidates: readonly Candidate[], rounds = 3, stillWanted: () => Promise<boolean> = async () => true): Promise<number> {
    let clicked = 0;
    for (let i = 0; i < rounds && (await stillWanted()); i++) {
      const found = await findFirst(this.page, candidates, { visible: true, enabled: true });
      if (!found) break;
      this.log.info(`${this.name}: ${what} "${found.candidate.text ?? found.candidate.selector}" clicked away`);
      await clickElement(found.element);
      clicked++;
      await sleep(200);
    }
    return clicked;
  }

  /** A toggle that is on gets clicked, and is expected to say it is off; true once it is off. */
  switchOff(what: string, toggle: Toggle, visible = true): Promise<boolean> {
    return this.switchTo(what, toggle, false, visible);
  }

  /**
   * The toggle brought to `on` (a bot with its own voice or picture keeps microphone or camera on): a
   * click when it shows the other state, then the label is expected to follow; true once it shows `on`.
   */
  async switchTo(what: string, toggle: Toggle, on: boolean, visible = true): Promise<boolean> {
    const [wrong, right] = on ? [toggle.isOff, toggle.turnOff] : [toggle.turnOff, toggle.isOff];
    const state = on ? 'on' : 'off';
    const other = await findFirst(this.page, wrong, { visible });
    if (!other) {
      const already = await findFirst(this.page, right);
      if (already) this.log.info(`${this.name}: ${what} already ${state} (${describeCandidate(already.candidate)})`);
      else this.log.warn(`${this.name}: no ${what} toggle found`);
      return already !== null;
    }
    this.matches.note(`${what} toggle`, describeCandidate(other.candidate));
    await clickElement(other.element);
    if (await waitForFirst(this.page, right, 2000)) {
      this.log.info(`${this.name}: ${what} ${state}`);
      return true;
    }
    this.log.warn(`${this.name}: the ${what} toggle did not turn ${state}`);
    return false;
  }

  /** The panel's input, opening the panel by its toggle when it is not there yet (`beforeToggle`: e.g. show a hidden toolbar). */
  async openPanel(parts: PanelParts, options: { visible?: boolean; beforeToggle?: () => Promise<void> } = {}): Promise<Found | null> {
    const visible = options.visible ?? false;
    const open = await findFirst(this.page, parts.input, { visible });
    if (open) return open;
    await options.beforeToggle?.();
    const toggle = await findFirst(this.page, parts.toggle, { visible });
    if (!toggle) {
      this.log.warn(`${this.name}: no ${parts.toggleName}`);
      return null;
    }
    this.matches.note(parts.toggleName, describeCandidate(toggle.candidate));
    await clickElement(toggle.element);
    const input = await waitForFirst(this.page, parts.input, 3000, { visible });
    if (input) this.matches.note(parts.inputName, describeCandidate(input.candidate));
    else this.log.warn(`${this.name}: the panel with the ${parts.inputName} did not open`);
    return input;
  }

  /**
   * Puts `text` into a composer through the editor's own input path: the composer focused and its
   * content selected, then the text inserted as typing inserts it (the DevTools protocol's
   * `Input.insertText`, which editors see as `beforeinput`/`input` of type insertText). Rich editors
   * (CKEditor, ProseMirror) keep a model of their own and revert or ignore a script that sets
   * `innerText`; a controlled textarea ignores a value set by script. `newLines`: `as_text` inserts
   * them with the text (a textarea), `shift_enter` presses Shift+Enter between lines (rich editors,
   * where Enter sends).
   */
  async insertText(element: ElementHandle<Element>, text: string, newLines: 'as_text' | 'shift_enter'): Promise<void> {
    await element.evaluate((el) => {
      const box = el as HTMLElement;
      box.focus();
      if (box instanceof HTMLTextAreaElement || box instanceof HTMLInputElement) box.select();
      else {
        const range = document.createRange();
        range.selectNodeContents(box);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
    });
    const lines = newLines === 'as_text' ? [text] : text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        await this.page.keyboard.down('Shift');
        await this.page.keyboard.press('Enter');
        await this.page.keyboard.up('Shift');
      }
      if (lines[i]) await this.page.keyboard.sendCharacter(lines[i]!);
    }
  }

  /**
   * Clicks the leave button (noted as `what`) and a confirmation if one shows, then waits up to
   * `timeoutMs` while `inCall()`; false when there is no leave button.
   */
  async leaveBy(what: string, leave: readonly Candidate[], confirm: readonly Candidate[], inCall: () => Promise<boolean>, timeoutMs: number, options: LeaveOptions = {}): Promise<boolean> {
    const button = await findFirst(this.page, leave, { visible: options.visible ?? false });
    if (!button) return false;
    this.matches.note(what, describeCandidate(button.candidate));
    await clickElement(button.element);
    const confirmation = await waitForFirst(this.page, confirm, options.confirmWaitMs ?? 500, { visible: true });
    if (confirmation && options.domClickConfirm) await confirmation.element.evaluate((e) => (e as HTMLElement).click());
    else if (confirmation) await clickElement(confirmation.element);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && (await inCall())) await sleep(100);
    return true;
  }
}

/** Messages with exactly `text` (spaces normalised) sent by the bot: by participant id when known, else by name. */
export const countOwnMessages = (chat: readonly SeenChatMessage[], selfId: string | null, botName: string, text: string): number => {
  const want = text.replace(/\s+/g, ' ').trim();
  const own = (m: SeenChatMessage) => (selfId !== null && m.participant_id === selfId) || normaliseText(m.sender_name) === normaliseText(botName);
  return chat.filter((m) => own(m) && m.text === want).length;
};
