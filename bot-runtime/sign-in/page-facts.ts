/** One look at a sign-in page: where it is, which of some elements show, and its visible text. */
import type { Page } from 'puppeteer-core';

export interface PageFacts {
  readonly host: string;
  readonly visible: readonly boolean[];
  readonly text: string;
}

/** Null while the page is between documents (a navigation destroyed the context): look again. */
export const pageFacts = async (page: Page, selectors: readonly string[]): Promise<PageFacts | null> => {
  try {
    const facts = (await page.evaluate(
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
  const handles = await page.$$(selector);
  for (const handle of handles) {
    if (!(await handle.isVisible())) continue;
    await handle.click({ clickCount: 3 });
    await handle.type(value);
    return true;
  }
  return false;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
