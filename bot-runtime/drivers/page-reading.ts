/**
 * A driver's reading of its page's screen: the page scanned with the driver's rules (page-scan.ts),
 * whether the bot has been in the call (rules of the `after_call` phase apply from then on: the same
 * sign-in page is a wall before admission and the meeting's end after it), and the last screen it
 * recognised, so that an unrecognised page's diagnostic can say what the driver believed and why.
 */
import type { Page } from 'puppeteer-core';
import type { ScanConfig } from './in-page/state-scan';
import type { PageExplanation, Screen } from './page-driver';
import { PageScanner, type PageScan } from './page-scan';

/** A URL without query and fragment: they may carry passcodes. */
export const withoutQuery = (url: string): string => url.split(/[?#]/)[0] ?? '';

export class PageReading {
  private readonly scanner: PageScanner;
  private wasAdmitted = false;
  private believed: { screen: Screen; evidence: string | null; at: string } | null = null;

  constructor(
    private readonly page: Page,
    private readonly config: ScanConfig,
  ) {
    this.scanner = new PageScanner(page);
  }

  /** the bot has been seen in the call */
  get admitted(): boolean {
    return this.wasAdmitted;
  }

  async scan(): Promise<PageScan> {
    const scan = await this.scanner.scan(this.config, { pageUrl: this.page.url(), admitted: this.wasAdmitted });
    const { screen, evidence } = scan.result;
    if (screen === 'in_call') this.wasAdmitted = true;
    if (screen !== 'unknown' && (this.believed?.screen !== screen || this.believed.evidence !== evidence)) {
      this.believed = { screen, evidence, at: new Date().toISOString() };
    }
    return scan;
  }

  async explain(): Promise<PageExplanation> {
    const places = await this.scanner.explain(this.config, { pageUrl: this.page.url(), admitted: this.wasAdmitted });
    return {
      url: withoutQuery(this.page.url()),
      // a wedged page can leave title() hanging for hours (MB #333): bounded
      title: await Promise.race([this.page.title().catch(() => ''), new Promise<string>((r) => setTimeout(() => r('(no answer)'), 2000))]),
      believed: this.believed,
      admitted: this.wasAdmitted,
      closedShadowRoots: this.scanner.closedRootCount,
      places,
    };
  }
}
