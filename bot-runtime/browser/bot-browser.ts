/**
 * Where a bot's tab lives: a new context of a browser shared with other bots, or Chromium launched
 * for this bot alone. Closing closes only what was opened for the bot, never the shared browser.
 */
import type { Browser, BrowserContext } from 'puppeteer-core';
import { launchBrowser } from './launch-browser';

export interface BotBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** `args` (e.g. the sandbox certificate pin) only apply to a launched browser. */
export const openBotBrowser = async (shared: Browser | undefined, args: readonly string[]): Promise<BotBrowser> => {
  if (shared) {
    const context = await shared.createBrowserContext();
    return { context, close: () => context.close() };
  }
  const browser = await launchBrowser({ args });
  return { context: browser.defaultBrowserContext(), close: () => browser.close() };
};
