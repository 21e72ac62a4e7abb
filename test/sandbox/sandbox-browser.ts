import type { Browser } from 'puppeteer-core';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';
import type { RunningSandbox } from '../../sandbox/server';

/** Chromium as a bot launches it (tab capture, autoplay, no outside traffic, its sandbox on), trusting exactly the sandbox certificate. */
export const browserTrustingSandbox = (sandbox: RunningSandbox, extraArgs: readonly string[] = []): Promise<Browser> =>
  launchBrowser({ args: [`--ignore-certificate-errors-spki-list=${sandbox.spkiSha256}`, ...extraArgs] });
