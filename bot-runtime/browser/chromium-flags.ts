/**
 * Every Chromium switch a bot's browser gets, in one place (the headless mode included), so that a change of
 * mode (new headless, or headful on a virtual display) or of a flag is one edit here. launch-browser.ts
 * adds the per-run arguments (certificate pins, replica routing) and refuses any sandbox switch.
 */
import puppeteer from 'puppeteer-core';

/** Chromium's new headless mode (the same browser as headful, without a display). */
export const HEADLESS = true;

/** The window, and so the page's layout and the screenshots' size. */
export const WINDOW = { width: 1280, height: 720 } as const;

/**
 * Chromium features a bot does not need, added to puppeteer's own list (Chromium reads one
 * `--disable-features`, the last: they are merged into one switch).
 * - `WebUIOmniboxPopup`, `WebUIOmniboxAimPopup`: the address bar's popup, which new headless preloads as two
 *   WebUI pages in two renderer processes although no address bar is ever typed in.
 * - `SpareRendererForSitePerProcess`: a spare renderer process kept ready for the next navigation; a bot
 *   navigates once (its first tab's own renderer takes the meeting page), so the spare only costs memory.
 * Together: one renderer per bot instead of four, about 60 MB less PSS per bot (docs/performance.md).
 */
export const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

const ours = (extra: readonly string[]): string[] => [
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
  `--window-size=${WINDOW.width},${WINDOW.height}`,
  ...extra,
];

const DISABLE_FEATURES = '--disable-features=';

/** All `--disable-features` lists as one switch (Chromium would read only the last), with DISABLED_FEATURES. */
export const mergeDisabledFeatures = (args: readonly string[]): string[] => {
  const listed = args.filter((a) => a.startsWith(DISABLE_FEATURES)).flatMap((a) => a.slice(DISABLE_FEATURES.length).split(','));
  const features = [...new Set([...listed, ...DISABLED_FEATURES].filter(Boolean))];
  return [...args.filter((a) => !a.startsWith(DISABLE_FEATURES)), `${DISABLE_FEATURES}${features.join(',')}`];
};

/** Puppeteer's defaults without `--mute-audio` (the tab capture would record silence), ours, and `extra`. */
export const chromiumFlags = (extra: readonly string[], profile: string): string[] =>
  mergeDisabledFeatures(puppeteer.defaultArgs({ headless: HEADLESS, args: ours(extra), userDataDir: profile }).filter((a) => a !== '--mute-audio'));
