/**
 * Steps the real platforms' drivers share: one action at a time on a page, clicking interstitials
 * away, and counting the bot's own chat messages in what a read of the page found.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { SeenChatMessage } from '../chat-log';
import { normaliseText } from './in-page/state-scan';
import { clickElement, findFirst, type Candidate } from './page-actions';

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

/** Clicks visible interstitials away (a few at most: one may reveal another); logs each as `<what> "<text>" clicked away`. */
export const clickAway = async (page: Page, log: BotLog, what: string, candidates: readonly Candidate[]): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    const found = await findFirst(page, candidates, { visible: true, enabled: true });
    if (!found) return;
    log.info(`${what} "${found.candidate.text ?? found.candidate.selector}" clicked away`);
    await clickElement(found.element);
    await sleep(200);
  }
};

/** Messages with exactly `text` (spaces normalised) sent by the bot: by participant id when known, else by name. */
export const countOwnMessages = (chat: readonly SeenChatMessage[], selfId: string | null, botName: string, text: string): number => {
  const want = text.replace(/\s+/g, ' ').trim();
  const own = (m: SeenChatMessage) => (selfId !== null && m.participant_id === selfId) || normaliseText(m.sender_name) === normaliseText(botName);
  return chat.filter((m) => own(m) && m.text === want).length;
};
