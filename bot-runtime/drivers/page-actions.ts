/**
 * Finding and using elements by candidates: the first candidate (in order) with a matching element
 * wins, and the driver logs which one it was, once per element kind and whenever it changes.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';

export interface Candidate {
  readonly selector: string;
  /** the element's text contains this (equals it with `exact`), case-insensitive, apostrophes alike */
  readonly text?: string;
  readonly exact?: boolean;
}

export interface FindOptions {
  /** only elements a person can see */
  readonly visible?: boolean;
  /** only elements that are not disabled */
  readonly enabled?: boolean;
}

export interface Found {
  readonly element: ElementHandle<Element>;
  readonly candidate: Candidate;
}

export const describeCandidate = (c: Candidate): string => (c.text === undefined ? c.selector : `${c.selector} "${c.text}"`);

const finderSource = (candidates: readonly Candidate[], opts: FindOptions) => String.raw`
(() => {
  var norm = function (s) { return String(s || '').replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, ' ').trim().toLowerCase(); };
  var cs = ${JSON.stringify(candidates)};
  var opts = ${JSON.stringify(opts)};
  for (var i = 0; i < cs.length; i++) {
    var els;
    try { els = Array.prototype.slice.call(document.querySelectorAll(cs[i].selector)); } catch (e) { continue; }
    var el = els.find(function (e) {
      if (opts.visible && typeof e.checkVisibility === 'function' && !e.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })) return false;
      if (opts.enabled && (e.disabled === true || e.getAttribute('aria-disabled') === 'true')) return false;
      if (cs[i].text === undefined) return true;
      var t = norm(e.textContent), w = norm(cs[i].text);
      return cs[i].exact ? t === w : t.indexOf(w) >= 0;
    });
    if (el) return [i, el];
  }
  return [-1, null];
})()`;

/** The first candidate's first matching element, or null. */
export const findFirst = async (page: Page, candidates: readonly Candidate[], opts: FindOptions = {}): Promise<Found | null> => {
  const result = await page.evaluateHandle(finderSource(candidates, opts));
  try {
    const index = (await (await result.getProperty('0')).jsonValue()) as number;
    if (index < 0) return null;
    const element = (await result.getProperty('1')).asElement() as ElementHandle<Element> | null;
    return element ? { element, candidate: candidates[index]! } : null;
  } finally {
    await result.dispose();
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls for the first candidate until `timeoutMs`; null when none showed. */
export const waitForFirst = async (page: Page, candidates: readonly Candidate[], timeoutMs: number, opts: FindOptions = {}): Promise<Found | null> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await findFirst(page, candidates, opts);
    if (found || Date.now() >= deadline) return found;
    await sleep(100);
  }
};

/**
 * Clicks like a person (the mouse, on the element's centre); an element the page keeps out of sight
 * (an auto-hidden toolbar) is clicked through the DOM instead.
 */
export const clickElement = async (element: ElementHandle<Element>): Promise<void> => {
  try {
    await element.click();
  } catch {
    await element.evaluate((el) => (el as HTMLElement).click());
  }
};

/** Logs which candidate found what: once per element kind, and again when another candidate takes over. */
export class MatchLog {
  private readonly last = new Map<string, string>();

  constructor(
    private readonly driver: string,
    private readonly log: BotLog,
  ) {}

  note(what: string, candidate: string): void {
    if (this.last.get(what) === candidate) return;
    this.last.set(what, candidate);
    this.log.info(`${this.driver}: ${what} found by ${candidate}`);
  }

  noteAll(matched: Record<string, string>): void {
    for (const [what, candidate] of Object.entries(matched)) this.note(what, candidate);
  }
}
