/**
 * How the bot's Chromium shows itself to a meeting page: headful on a virtual display of its own
 * (display.ts), or Chromium's new headless mode, with the same switches that keep it looking like a
 * person's Chromium on Linux (docs/decisions.md, "Issue 22: the browser a page sees", where the two
 * were measured). The bot runs `DEFAULT_BROWSER_MODE`; the other stays for the benchmark's comparison.
 */
import type { ScreenSize } from '../display';

export type BrowserMode = 'headful' | 'headless';

export const BROWSER_MODES: readonly BrowserMode[] = ['headful', 'headless'];

export const DEFAULT_BROWSER_MODE: BrowserMode = 'headful';

/** A common laptop screen; the window sits at its top left, like a person's that was moved there. */
export const SCREEN: ScreenSize = { width: 1920, height: 1080 };

/** What the meeting page gets to draw on while the bot records (what the recording and screenshots show). */
export const VIEWPORT: ScreenSize = { width: 1280, height: 720 };

/** Chromium's own tab strip and toolbar above the page, in a headful window on Linux (measured). */
export const BROWSER_UI_HEIGHT = 87;

/**
 * The bar a headful Chromium shows above a tab while it is captured ("Sharing this tab to …", measured):
 * the window leaves room for it, so that the recorded page is `VIEWPORT`; before the recording starts the
 * page is that much taller (MB's window is 1280×860 for a 1280×720 page: the same room).
 */
export const SHARING_BAR_HEIGHT = 56;

export const windowSize = (mode: BrowserMode): ScreenSize =>
  mode === 'headful' ? { width: VIEWPORT.width, height: VIEWPORT.height + BROWSER_UI_HEIGHT + SHARING_BAR_HEIGHT } : VIEWPORT;

/** puppeteer's default switches that a person's Chromium does not have. */
export const AUTOMATION_DEFAULTS = ['--enable-automation', '--mute-audio', '--hide-scrollbars', '--headless=new'];

/**
 * The graphics card WebGL names. The machine has none: Mesa's software renderer (llvmpipe) draws, which
 * WebGL would name, like Chromium's own SwiftShader, as software (a server's tell, Vexa PR #1252). Mesa
 * reports the name its configuration gives (`force_gl_vendor`, `force_gl_renderer`, read from the
 * environment like any of its driconf options), so the page reads a laptop's Intel card through
 * WebGL's own, unpatched functions. WebGPU stays off, as Chromium keeps it for that card on Linux.
 */
export const GPU_VENDOR = 'Intel';
export const GPU_RENDERER = 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)';

export const gpuEnvironment = (): Record<string, string> => ({ force_gl_vendor: GPU_VENDOR, force_gl_renderer: GPU_RENDERER });

/**
 * Mesa through ANGLE for WebGL, despite Chromium's list of software drivers it otherwise refuses: on the
 * display's GLX when headful, on EGL without a display when headless. The page itself is still drawn and
 * composited in software, as with `--disable-gpu` before.
 */
const gpuArgs = (mode: BrowserMode): string[] => [
  '--ignore-gpu-blocklist',
  '--disable-gpu-compositing',
  '--disable-features=WebGPU',
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
 * given the headful one's, with the version reduced as Chromium reduces it. Headful needs none.
 */
export const userAgentArgs = (mode: BrowserMode, chromiumVersion: string): string[] => {
  const major = /(\d+)\./.exec(chromiumVersion)?.[1];
  if (mode === 'headful' || !major) return [];
  return [`--user-agent=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`];
};
