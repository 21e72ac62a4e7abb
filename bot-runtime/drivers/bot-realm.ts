/**
 * Where the drivers read and act in a page: puppeteer's own isolated world of each frame, not the page's
 * world. The DOM is the same, but no script of the page sees the drivers' code run: a page that wraps
 * `querySelectorAll` or a getter to see who calls it sees only its own calls (the probe's
 * `page-world-callers` check, docs/decisions.md "Issue 22: the browser a page sees"). Element handles
 * found there click and type through the DevTools protocol's input events as before.
 *
 * `Frame.isolatedRealm()` is puppeteer's (it keeps the world for its own utilities); its types mark it
 * internal, hence the cast. Were it ever gone, every read would fail at once, and every test with it.
 */
import type { ElementHandle, Frame, Page, Realm } from 'puppeteer-core';

export const botRealm = (where: Frame | Page): Realm => {
  const frame = 'mainFrame' in where ? where.mainFrame() : where;
  return (frame as unknown as { isolatedRealm(): Realm }).isolatedRealm();
};

/** The first element matching `selector` in the frame's document, found from the bot's world; null when none. */
export const queryInBotRealm = async (where: Frame | Page, selector: string): Promise<ElementHandle<Element> | null> => {
  const handle = await botRealm(where).evaluateHandle((s: string) => document.querySelector(s), selector);
  const element = handle.asElement() as ElementHandle<Element> | null;
  if (!element) await handle.dispose();
  return element;
};

/** Waits (bounded) for an element matching `selector`, from the bot's world. */
export const waitInBotRealm = async (where: Frame | Page, selector: string, timeoutMs: number): Promise<ElementHandle<Element>> => {
  const handle = await botRealm(where).waitForFunction((s: string) => document.querySelector(s), { timeout: timeoutMs }, selector);
  return handle.asElement() as ElementHandle<Element>;
};
