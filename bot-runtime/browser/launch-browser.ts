/**
 * Launches Debian's Chromium the way tab capture works headless here (ENVIRONMENT.md): no
 * `--mute-audio`, no `--use-fake-ui-for-media-stream`, `--auto-accept-this-tab-capture`, autoplay
 * without a gesture, and no background traffic to outside hosts.
 */
import puppeteer, { type Browser } from 'puppeteer-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = (extra: readonly string[] = []): string[] => [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
  '--auto-accept-this-tab-capture',
  // a hidden or occluded tab must not be throttled: the page polls the meeting and records
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--window-size=1280,720',
  ...extra,
];

export interface LaunchOptions {
  /** extra Chromium arguments (e.g. the sandbox certificate pin) */
  readonly args?: readonly string[];
  readonly executablePath?: string;
}

export const launchBrowser = (opts: LaunchOptions = {}): Promise<Browser> =>
  puppeteer.launch({
    executablePath: opts.executablePath ?? CHROMIUM_PATH,
    headless: true,
    ignoreDefaultArgs: ['--mute-audio'],
    args: chromiumArgs(opts.args),
    defaultViewport: { width: 1280, height: 720 },
    protocolTimeout: 60_000,
    // Over a pipe, Chromium exits when the bot process dies, however it dies: a killed bot leaves no browser behind.
    pipe: true,
    // the bot handles signals itself (leave, store the recording, then close the browser)
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
