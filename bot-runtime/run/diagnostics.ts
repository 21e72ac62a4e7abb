/**
 * What the bot keeps of a page its driver does not recognise, so that someone can mend the driver:
 * a screenshot and the page's HTML without chat text, names or scripts (drivers' `redactedHtml`),
 * stored as `diagnostic` artifacts. Either may fail on a dying page; the run ends all the same.
 */
import type { ArtifactStore } from '../artifacts';
import type { BotLog } from '../bot-log';
import type { MeetingTab } from './meeting-tab';

export const DIAGNOSTIC_SCREENSHOT = 'diagnostics/unrecognised-page.png';
export const DIAGNOSTIC_HTML = 'diagnostics/unrecognised-page.html';

/** Stores the diagnostic; returns the keys stored. */
export const storePageDiagnostic = async (tab: MeetingTab, artifacts: ArtifactStore, log: BotLog, names: readonly string[]): Promise<string[]> => {
  const stored: string[] = [];
  try {
    if (await artifacts.store('diagnostic', DIAGNOSTIC_SCREENSHOT, 'image/png', await tab.screenshot())) stored.push(DIAGNOSTIC_SCREENSHOT);
  } catch (err) {
    log.warn(`diagnostic screenshot: ${(err as Error).message}`);
  }
  try {
    const html = await tab.driver.redactedHtml(names);
    if (await artifacts.store('diagnostic', DIAGNOSTIC_HTML, 'text/html; charset=utf-8', Buffer.from(html))) stored.push(DIAGNOSTIC_HTML);
  } catch (err) {
    log.warn(`diagnostic HTML: ${(err as Error).message}`);
  }
  return stored;
};
