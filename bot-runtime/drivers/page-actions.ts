/**
 * Finding and using elements by candidates: the first candidate (in order) with a matching element
 * wins, and the driver logs which one it was, once per element kind and whenever it changes.
 */
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import { evaluateInChildFrame, framesOf } from './page-scan';
import { botRealm } from './bot-realm';

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
  // the document and every open shadow root in it
  var scopes = [];
  var addScope = function (root) {
    scopes.push(root);
    var all = root.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) if (all[i].shadowRoot) addScope(all[i].shadowRoot);
  };
  addScope(document);
  for (var i = 0; i < cs.length; i++) {
    var els = [];
    try { scopes.forEach(function (s) { els = els.concat(Array.prototype.slice.call(s.querySelectorAll(cs[i].selector))); }); } catch (e) { continue; }
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

/** The first candidate's first matching element in one frame: its index and the element, or null. */
const findInFrame = async (frame: Frame, source: string): Promise<{ index: number; element: ElementHandle<Element> } | null> => {
  const result = await botRealm(frame).evaluateHandle(source);
  try {
    const index = (await (await result.getProperty('0')).jsonValue()) as number;
    if (index < 0) return null;
    const element = (await result.getProperty('1')).asElement() as ElementHandle<Element> | null;
    return element ? { index, element } : null;
  } finally {
    await result.dispose();
  }
};

/**
 * The first candidate's first matching element, in the page or any of its frames (some clients run
 * inside a child frame), or null. An earlier candidate wins over a later one in any frame.
 */
export const findFirst = async (page: Page, candidates: readonly Candidate[], opts: FindOptions = {}): Promise<Found | null> => {
  const source = finderSource(candidates, opts);
  let best: { index: number; element: ElementHandle<Element> } | null = null;
  for (const frame of framesOf(page)) {
    let found: { index: number; element: ElementHandle<Element> } | null = null;
    try {
      found = frame === page.mainFrame() ? await findInFrame(frame, source) : ((await evaluateInChildFrame(frame, () => findInFrame(frame, source))) ?? null);
    } catch (err) {
      if (frame === page.mainFrame()) throw err;
    }
    if (found && (best === null || found.index < best.index)) {
      await best?.element.dispose();
      best = found;
      if (best.index === 0) break;
    } else await found?.element.dispose();
  }
  return best ? { element: best.element, candidate: candidates[best.index]! } : null;
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
 * Clicks like a person (the mouse, on the element's centre: a trusted click, which a script's is not).
 * An element the page keeps out of sight (an auto-hidden toolbar) shows when the pointer moves over the
 * page, as for a person; only one that still cannot be clicked is clicked through the DOM.
 */
export const clickElement = async (element: ElementHandle<Element>): Promise<void> => {
  try {
    await element.click();
    return;
  } catch {
    // moved over the page below: the toolbar shows
  }
  const page = element.frame.page();
  const [width, height] = (await botRealm(page).evaluate('[innerWidth, innerHeight]')) as [number, number];
  await page.mouse.move(width / 2, height / 2, { steps: 5 });
  await page.mouse.move(width / 2, height - 40, { steps: 5 });
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
