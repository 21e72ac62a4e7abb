/**
 * Every Chromium switch a bot's browser gets, in one place: puppeteer's defaults without those a person's
 * Chromium does not have, the bot's own (tab capture, no background traffic, no throttling), those that make
 * it look like a person's Chromium on Linux in its mode (headful on a display of its own, or new headless:
 * fingerprint/browser-mode.ts, docs/decisions.md "Issue 22: the browser a page sees"), and the features a bot
 * does not need. launch-browser.ts adds the per-run arguments (certificate pins, replica routing) and refuses
 * any sandbox switch.
 */
import puppeteer from 'puppeteer-core';
import { SCREEN, windowSize, type BrowserMode } from './fingerprint/browser-mode';

/** puppeteer's default switches that a person's Chromium does not have. */
export const AUTOMATION_DEFAULTS = ['--enable-automation', '--mute-audio', '--hide-scrollbars', '--headless=new'];

const DISABLE_FEATURES = '--disable-features=';

/**
 * The Chromium features a bot's browser runs without, as one switch: Chromium reads only the last
 * `--disable-features` it is given (measured on Chromium 156: a list before another has no effect).
 * Puppeteer's own list (Translate, MediaRouter, AcceptCHFrame, IsolateSandboxedIframes …) is not among
 * them: a person's Chromium has them all, and the bot of issue 22 already ran with them (its later
 * `--disable-features=WebGPU` silenced puppeteer's list), which is what its fingerprint was measured with.
 * - `WebGPU`: off, as Chromium keeps it for the card WebGL names on Linux (it would name llvmpipe:
 *   fingerprint/browser-mode.ts).
 * - `WebUIOmniboxPopup`, `WebUIOmniboxAimPopup`: the address bar's popup, which Chromium preloads as two
 *   WebUI pages in two renderer processes although no address bar is ever typed in (headful and headless).
 * - `SpareRendererForSitePerProcess`: a spare renderer process kept ready for the next navigation; a bot
 *   navigates once (its first tab's own renderer takes the meeting page), so the spare only costs memory.
 * None of them is anything a page can see. The last three: one renderer per bot instead of four, about
 * 60 MB less PSS per bot (docs/performance.md).
 */
export const DISABLED_FEATURES = ['WebGPU', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

/** Every `--disable-features` list in `args` (a caller's too) merged into one switch with DISABLED_FEATURES, since Chromium reads only the last. */
export const mergeDisabledFeatures = (args: readonly string[]): string[] => {
  const listed = args.filter((a) => a.startsWith(DISABLE_FEATURES)).flatMap((a) => a.slice(DISABLE_FEATURES.length).split(','));
  const features = [...new Set([...DISABLED_FEATURES, ...listed].filter(Boolean))];
  return [...args.filter((a) => !a.startsWith(DISABLE_FEATURES)), `${DISABLE_FEATURES}${features.join(',')}`];
};

/** The bot's own needs: tab capture without a prompt, sound, no traffic to outside hosts, no throttling. */
const botArgs = (): string[] => [
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
];

/**
 * Mesa through ANGLE for WebGL, despite Chromium's list of software drivers it otherwise refuses: on the
 * display's GLX when headful, on EGL without a display when headless. The page itself is still drawn and
 * composited in software, as `--disable-gpu` did before (WebGPU stays off: DISABLED_FEATURES).
 */
const gpuArgs = (mode: BrowserMode): string[] => [
  '--ignore-gpu-blocklist',
  '--disable-gpu-compositing',
  ...(mode === 'headless' ? ['--use-gl=angle', '--use-angle=gl-egl'] : []),
];

/**
 * The switches of a browser that looks like a person's: no automation flag in Blink (`navigator.webdriver`
 * false), one language everywhere (UI, `Accept-Language`, `navigator.languages`, Intl), the window's size
 * and place, WebGL on a named card; headless adds its mode and the screen it pretends to have.
 */
export const personLikeArgs = (mode: BrowserMode): string[] => {
  const window = windowSize(mode);
  return [
    '--disable-blink-features=AutomationControlled',
    '--lang=en-US',
    '--accept-lang=en-US,en',
    '--window-position=0,0',
    `--window-size=${window.width},${window.height}`,
    ...gpuArgs(mode),
    ...(mode === 'headless' ? ['--headless=new', `--screen-info={${SCREEN.width}x${SCREEN.height}}`] : []),
  ];
};

/**
 * Headless Chromium names itself `HeadlessChrome` in its user agent (HTTP, page and workers alike): it is
 * given the headful one's, with the version reduced as Chromium reduces it. Headful needs none (and so
 * does not ask Chromium its version).
 */
export const userAgentArgs = (mode: BrowserMode, chromiumVersion: () => string): string[] => {
  if (mode === 'headful') return [];
  const major = /(\d+)\./.exec(chromiumVersion())?.[1];
  if (!major) return [];
  return [`--user-agent=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`];
};

/**
 * The whole command line but the executable: puppeteer's defaults without the automation ones and without
 * its disabled features, the bot's, the person-like ones of `mode`, the user agent, `extra`, the features
 * off (one switch), and the first tab's blank page last.
 */
export const chromiumFlags = (extra: readonly string[], profile: string, mode: BrowserMode, chromiumVersion: () => string): string[] => {
  const defaults = puppeteer
    .defaultArgs({ headless: false, userDataDir: profile })
    .filter((a) => !AUTOMATION_DEFAULTS.includes(a) && !a.startsWith(DISABLE_FEATURES) && a !== 'about:blank');
  return [...mergeDisabledFeatures([...defaults, ...botArgs(), ...personLikeArgs(mode), ...userAgentArgs(mode, chromiumVersion), ...extra]), 'about:blank'];
};
