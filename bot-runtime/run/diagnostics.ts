/**
 * What the bot keeps of a page its driver does not recognise, so that someone can mend the driver:
 * a screenshot and the page's HTML without chat text, names or scripts (drivers' `redactedHtml`),
 * stored as `diagnostic` artifacts. Either may fail on a dying page; the run ends all the same.
 *
 * Only of the meeting platform's own pages (a page the meeting sent the bot to elsewhere, a sign-in or a
 * stranger's site, is none of the bot's business to keep), and each within a size cap.
 */
import type { ArtifactStore } from '../artifacts';
import type { BotLog } from '../bot-log';
import type { DriverFamily } from '../drivers/page-driver';
import type { MeetingTab } from './meeting-tab';

export const DIAGNOSTIC_SCREENSHOT = 'diagnostics/unrecognised-page.png';
export const DIAGNOSTIC_HTML = 'diagnostics/unrecognised-page.html';

/** A screenshot of the 1280x720 page is well under this; one above it is not kept. */
export const MAX_PAGE_IMAGE_BYTES = 4 * 1024 * 1024;
/** The diagnostic HTML is cut here, with a note saying so. */
export const MAX_DIAGNOSTIC_HTML_BYTES = 1024 * 1024;

/** Whether `pageUrl` is one of the platform's own pages (the hosts its driver family joins meetings on). */
export const isPlatformPage = (pageUrl: string, family: Pick<DriverFamily, 'drives'>): boolean => {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && family.drives(url.hostname.toLowerCase().replace(/\.$/, ''));
};

/** The HTML within the cap: cut on a character, with a comment saying how much was left out. */
export const cappedHtml = (html: string, maxBytes: number = MAX_DIAGNOSTIC_HTML_BYTES): Buffer => {
  const whole = Buffer.from(html);
  if (whole.length <= maxBytes) return whole;
  const note = `\n<!-- cut: ${whole.length} bytes, the first ${maxBytes} kept -->\n`;
  // a UTF-8 continuation byte (10xxxxxx) is never the first of a character: back up to a whole one
  let end = maxBytes - Buffer.byteLength(note);
  while (end > 0 && (whole[end]! & 0xc0) === 0x80) end--;
  return Buffer.concat([whole.subarray(0, end), Buffer.from(note)]);
};

/** Stores the diagnostic; returns the keys stored. */
export const storePageDiagnostic = async (tab: MeetingTab, artifacts: ArtifactStore, log: BotLog, names: readonly string[]): Promise<string[]> => {
  if (!tab.onPlatformPage()) {
    log.info(`no diagnostic kept: the page is not one of the platform's (${hostOf(tab.page.url())})`);
    return [];
  }
  const stored: string[] = [];
  try {
    const png = await tab.screenshot();
    if (png && (await artifacts.store('diagnostic', DIAGNOSTIC_SCREENSHOT, 'image/png', png))) stored.push(DIAGNOSTIC_SCREENSHOT);
  } catch (err) {
    log.warn(`diagnostic screenshot: ${(err as Error).message}`);
  }
  try {
    const html = cappedHtml(await tab.driver.redactedHtml(names));
    if (await artifacts.store('diagnostic', DIAGNOSTIC_HTML, 'text/html; charset=utf-8', html)) stored.push(DIAGNOSTIC_HTML);
  } catch (err) {
    log.warn(`diagnostic HTML: ${(err as Error).message}`);
  }
  return stored;
};

const hostOf = (pageUrl: string): string => {
  try {
    return new URL(pageUrl).host || pageUrl;
  } catch {
    return '?';
  }
};
