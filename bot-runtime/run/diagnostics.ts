/**
 * What the bot keeps of a page its driver does not recognise, so that someone can mend the driver
 * from the artifacts alone: a screenshot, the page's HTML without chat text, names or scripts
 * (drivers' `redactedHtml`), and the driver's explanation: the state it last believed the page was
 * in and on what evidence, and every rule it checked in every place (main document, frames, closed
 * shadow roots) with what matched, what was missing and what vetoed it. Stored as `diagnostic`
 * artifacts; the explanation's summary also goes to the bot's log. Any of them may fail on a dying
 * page; the run ends all the same.
 *
 * The screenshot and the HTML only of the meeting platform's own pages (a page the meeting sent the bot to
 * elsewhere, a sign-in or a stranger's site, is none of the bot's business to keep), each within a size
 * cap; of another page only the explanation, without its title.
 */
import type { ArtifactStore } from '../artifacts';
import type { BotLog } from '../bot-log';
import type { DriverFamily, PageExplanation } from '../drivers/page-driver';
import type { MeetingTab } from './meeting-tab';

export const DIAGNOSTIC_SCREENSHOT = 'diagnostics/unrecognised-page.png';
export const DIAGNOSTIC_HTML = 'diagnostics/unrecognised-page.html';
export const DIAGNOSTIC_EXPLANATION = 'diagnostics/unrecognised-page.json';

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


/** how many near misses the log line names */
const NEAR_MISSES = 4;

/**
 * One line: what the driver believed and why, and the rules that came nearest (a condition held, but
 * another was missing or vetoed it), or that no condition of any rule held.
 */
export const summariseExplanation = (driver: string, e: PageExplanation): string => {
  const believed = e.believed ? `last recognised ${e.believed.screen} (${e.believed.evidence ?? 'no evidence'}) at ${e.believed.at}` : 'recognised nothing since the page loaded';
  const near = e.places.flatMap((p) =>
    p.verdicts
      .filter((v) => v.matched !== null && (v.missing.length > 0 || v.vetoedBy.length > 0))
      .map((v) => `${v.rule} in ${p.where}: ${v.matched} held but ${[...v.missing.map((m) => `no ${m}`), ...v.vetoedBy.map((m) => `vetoed by ${m}`)].join(', ')}`),
  );
  const checked = [...new Set(e.places.flatMap((p) => p.verdicts.filter((v) => !v.outOfPhase).map((v) => v.rule)))];
  const now =
    near.length > 0
      ? `nearest candidates: ${near.slice(0, NEAR_MISSES).join('; ')}${near.length > NEAR_MISSES ? `; ${near.length - NEAR_MISSES} more` : ''}`
      : `no condition of any rule held (checked ${checked.join(', ')})`;
  const places = `${e.places.length} place(s) scanned: ${e.places.map((p) => p.where).join(', ')}`;
  return `${driver} driver ${believed}${e.admitted ? ', after having been in the call' : ''}; now on ${e.url} ("${e.title}"): ${now}; ${places}`;
};

/** The explanation with the people's names taken out of its free text (the title may name the meeting's people). */
const withoutNames = (e: PageExplanation, names: readonly string[]): PageExplanation => {
  const scrub = (s: string) => names.filter((n) => n.trim().length >= 2).reduce((t, n) => t.split(n).join('[name]'), s);
  return { ...e, title: scrub(e.title) };
};

/** Stores the diagnostic and logs the driver's explanation; returns the keys stored. */
export const storePageDiagnostic = async (tab: MeetingTab, artifacts: ArtifactStore, log: BotLog, names: readonly string[]): Promise<string[]> => {
  const stored: string[] = [];
  const ours = tab.onPlatformPage();
  if (!ours) log.info(`no screenshot or HTML kept: the page is not one of the platform's (${hostOf(tab.page.url())})`);
  if (ours) {
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
  }
  try {
    const found = withoutNames(await tab.driver.explain(), names);
    // a stranger's page: where the bot was sent is evidence, what that page calls itself is not ours to keep
    const explanation = ours ? found : { ...found, title: '' };
    log.warn(`unrecognised page: ${summariseExplanation(tab.driver.name, explanation)}`);
    const json = Buffer.from(`${JSON.stringify({ driver: tab.driver.name, ...explanation }, null, 2)}\n`);
    if (await artifacts.store('diagnostic', DIAGNOSTIC_EXPLANATION, 'application/json', json)) stored.push(DIAGNOSTIC_EXPLANATION);
  } catch (err) {
    log.warn(`diagnostic explanation: ${(err as Error).message}`);
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
