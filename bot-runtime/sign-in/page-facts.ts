/**
 * One look at a sign-in page, and the bot's hands on it: where it is, which of some elements show, its
 * visible text; typing into a field and clicking a button. Everything is read and found from the bot's
 * own isolated world (drivers/bot-realm.ts), never the page's: a sign-in page that watches who calls its
 * DOM sees only itself. Typing and clicks are the keyboard's and the mouse's (trusted input events).
 */
import type { Page } from 'puppeteer-core';
import { botRealm } from '../drivers/bot-realm';
import { clickElement, findFirst } from '../drivers/page-actions';

export interface PageFacts {
  readonly host: string;
  readonly visible: readonly boolean[];
  readonly text: string;
}

/** Null while the page is between documents (a navigation destroyed the context): look again. */
export const pageFacts = async (page: Page, selectors: readonly string[]): Promise<PageFacts | null> => {
  try {
    const facts = (await botRealm(page).evaluate(
      `(() => {
        const shown = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
        return {
          visible: ${JSON.stringify(selectors)}.map((s) => Array.from(document.querySelectorAll(s)).some(shown)),
          text: (document.body ? document.body.innerText : '').slice(0, 5000),
        };
      })()`,
    )) as { visible: boolean[]; text: string };
    return { host: new URL(page.url()).hostname, ...facts };
  } catch (err) {
    if (/context was destroyed|Cannot find context|detached|navigat/i.test((err as Error).message)) return null;
    throw err;
  }
};

export const hasAnyText = (facts: PageFacts, texts: readonly string[]): string | null => {
  const lower = facts.text.replace(/[’‘]/g, "'").toLowerCase();
  return texts.find((t) => lower.includes(t.toLowerCase())) ?? null;
};

/** Types into the first visible match of `selector` (its old value replaced); false when none shows. */
export const typeInto = async (page: Page, selector: string, value: string): Promise<boolean> => {
  const found = await findFirst(page, [{ selector }], { visible: true });
  if (!found) return false;
  try {
    await found.element.click({ clickCount: 3 });
    await found.element.type(value);
  } finally {
    await found.element.dispose();
  }
  return true;
};

/** Clicks the first visible match of `selector` as a person does; false when none shows. */
export const clickOn = async (page: Page, selector: string): Promise<boolean> => {
  const found = await findFirst(page, [{ selector }], { visible: true });
  if (!found) return false;
  try {
    await clickElement(found.element);
  } finally {
    await found.element.dispose().catch(() => undefined);
  }
  return true;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
