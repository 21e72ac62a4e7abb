import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs } from '../../bot-runtime/browser/launch-browser';
import type { RunningSandbox } from '../../sandbox/server';

/** Chromium with the bot's own flags (tab capture, autoplay, no outside traffic), trusting exactly the sandbox certificate. */
export const browserTrustingSandbox = (sandbox: RunningSandbox, extraArgs: readonly string[] = []): Promise<Browser> =>
  puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    ignoreDefaultArgs: ['--mute-audio'],
    args: chromiumArgs([`--ignore-certificate-errors-spki-list=${sandbox.spkiSha256}`, ...extraArgs]),
  });
