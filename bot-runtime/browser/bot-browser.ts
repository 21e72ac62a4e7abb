/**
 * Where a bot's tab lives: a new context of a browser shared with other bots (in-process tests), the
 * browser its process started before the job came (a warm process, when it was started with the same
 * arguments as the job needs), or Chromium launched for this bot alone. Closing closes only what was opened
 * for the bot, never a shared browser.
 */
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { launchBrowser } from './launch-browser';

export interface BotBrowser {
  readonly context: BrowserContext;
  /** the meeting's tab: the browser's first tab when the browser is the bot's own (no second renderer for an empty tab) */
  readonly page: Page;
  /** the browser was started before the job */
  readonly warm: boolean;
  close(): Promise<void>;
}

/** Chromium started before its job, with the arguments it was started with. */
export interface WarmBrowser {
  readonly browser: Browser;
  readonly args: readonly string[];
}

/** A browser started with other arguments (another certificate pin, other routing) cannot serve the job. */
export const servesJob = (warm: WarmBrowser, args: readonly string[]): boolean =>
  warm.args.length === args.length && warm.args.every((a, i) => a === args[i]);

const ownBrowser = async (browser: Browser, warm: boolean): Promise<BotBrowser> => {
  const [first] = await browser.pages();
  return { context: browser.defaultBrowserContext(), page: first ?? (await browser.newPage()), warm, close: () => browser.close() };
};

/** `args` (e.g. the sandbox certificate pin) apply to a launched browser; a warm one is used only if it was started with them. */
export const openBotBrowser = async (from: { readonly shared?: Browser | undefined; readonly warm?: WarmBrowser | null }, args: readonly string[]): Promise<BotBrowser> => {
  if (from.shared) {
    const context = await from.shared.createBrowserContext();
    return { context, page: await context.newPage(), warm: false, close: () => context.close() };
  }
  const warm = from.warm ?? null;
  if (warm && servesJob(warm, args) && warm.browser.connected) return ownBrowser(warm.browser, true);
  if (warm) await warm.browser.close().catch(() => undefined);
  return ownBrowser(await launchBrowser({ args }), false);
};
