/**
 * What the speakers of a launched browser play (its sound server, audio-server.ts), found from one of its
 * pages: the drivers listen to the meeting there, outside the page.
 */
import type { Browser, Page } from 'puppeteer-core';
import type { AudioServer, Speakers } from './audio-server';

const soundServers = new WeakMap<Browser, AudioServer>();

export const keepSoundServer = (browser: Browser, sound: AudioServer): void => {
  soundServers.set(browser, sound);
};

/** The speakers of the browser playing `page`; null for a browser this process did not launch. */
export const speakersOf = (page: Page): Speakers | null => soundServers.get(page.browser())?.speakers() ?? null;
