/**
 * Steps the real platforms' drivers share: one action at a time on a page; waiting for an element,
 * clicking interstitials away, turning a labelled toggle off, opening a side panel and leaving by a
 * button, each logging which candidate it used; and counting the bot's own chat messages in what a
 * read of the page found.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { SeenChatMessage } from '../chat-log';
import { normaliseText } from './in-page/state-scan';
import { clickElement, describeCandidate, findFirst, MatchLog, waitForFirst, type Candidate, type Found } from './page-actions';

/** Runs actions one after another (two clicks on a panel's toggle at once would close it again). */
export class ActionQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(action: () => Promise<T>): Promise<T> {
    const next = this.last.then(action, action);
    this.last = next.catch(() => undefined);
    return next;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A toggle whose label says what a click does: "Turn off …" while on, "Turn on …" once off. */
export interface LabelledToggle {
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

/** The steps on one page, logged as `<driver>: …`. */
export class PageSteps {
  readonly matches: MatchLog;

  constructor(
    private readonly page: Page,
    private readonly log: BotLog,
    private readonly driver: string,
  ) {
    this.matches = new MatchLog(driver, log);
  }

  /** The first candidate that shows, visible and enabled, within `timeoutMs`; noted as `what`. */
  async waitFor(what: string, candidates: readonly Candidate[], timeoutMs: number): Promise<Found | null> {
    const found = await waitForFirst(this.page, candidates, timeoutMs, { visible: true, enabled: true });
    if (found) this.matches.note(what, describeCandidate(found.candidate));
    return found;
  }

  /** Clicks visible interstitials away (a few at most: one may reveal another). */
  async clickAway(what: string, candidates: readonly Candidate[]): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const found = await findFirst(this.page, candidates, { visible: true, enabled: true });
      if (!found) return;
      this.log.info(`${this.driver}: ${what} "${found.candidate.text ?? found.candidate.selector}" clicked away`);
      await clickElement(found.element);
      await sleep(200);
    }
  }

  /** A toggle labelled "Turn off …" is on: click it, and expect its "off" label in its place. */
  async switchOff(what: string, toggle: LabelledToggle): Promise<void> {
    const on = await findFirst(this.page, toggle.turnOff, { visible: true });
    if (!on) {
      const off = await findFirst(this.page, toggle.isOff);
      if (off) this.log.info(`${this.driver}: ${what} already off (${describeCandidate(off.candidate)})`);
      else this.log.warn(`${this.driver}: no ${what} toggle found`);
      return;
    }
    this.matches.note(`${what} toggle`, describeCandidate(on.candidate));
    await clickElement(on.element);
    if (await waitForFirst(this.page, toggle.isOff, 2000)) this.log.info(`${this.driver}: ${what} off`);
    else this.log.warn(`${this.driver}: the ${what} toggle did not turn off`);
  }

  /** The panel's input, opening the panel by its toggle when it is not there yet (`beforeToggle`: e.g. show a hidden toolbar). */
  async openPanel(parts: PanelParts, options: { visible?: boolean; beforeToggle?: () => Promise<void> } = {}): Promise<Found | null> {
    const visible = options.visible ?? false;
    const open = await findFirst(this.page, parts.input, { visible });
    if (open) return open;
    await options.beforeToggle?.();
    const toggle = await findFirst(this.page, parts.toggle, { visible });
    if (!toggle) {
      this.log.warn(`${this.driver}: no ${parts.toggleName}`);
      return null;
    }
    this.matches.note(parts.toggleName, describeCandidate(toggle.candidate));
    await clickElement(toggle.element);
    const input = await waitForFirst(this.page, parts.input, 3000, { visible });
    if (input) this.matches.note(parts.inputName, describeCandidate(input.candidate));
    else this.log.warn(`${this.driver}: the panel with the ${parts.inputName} did not open`);
    return input;
  }

  /**
   * Clicks the leave button (noted as `what`) and a confirmation if one shows within 500 ms, then
   * waits up to `timeoutMs` while `inCall()`; false when there is no leave button.
   */
  async leaveBy(what: string, leave: readonly Candidate[], confirm: readonly Candidate[], inCall: () => Promise<boolean>, timeoutMs: number, visible = false): Promise<boolean> {
    const button = await findFirst(this.page, leave, { visible });
    if (!button) return false;
    this.matches.note(what, describeCandidate(button.candidate));
    await clickElement(button.element);
    const confirmation = await waitForFirst(this.page, confirm, 500, { visible: true });
    if (confirmation) await clickElement(confirmation.element);
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
