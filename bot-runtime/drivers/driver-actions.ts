/**
 * What page drivers of real web clients do the same way: one action at a time (two clicks on a panel
 * toggle would close it again), waiting for an element by candidates and logging which one matched,
 * clicking interstitials away, and turning a labelled toggle off.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import { clickElement, describeCandidate, findFirst, MatchLog, waitForFirst, type Candidate, type Found } from './page-actions';

/** A toggle whose label says what a click does: `turnOff` matches it while on, `isOff` once off. */
export interface Toggle {
  readonly turnOff: readonly Candidate[];
  readonly isOff: readonly Candidate[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class DriverActions {
  readonly matches: MatchLog;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly page: Page,
    private readonly log: BotLog,
  ) {
    this.matches = new MatchLog(name, log);
  }

  /** Runs `action` after the ones queued before it. */
  exclusive<T>(action: () => Promise<T>): Promise<T> {
    const next = this.queue.then(action, action);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A visible, enabled element by candidates within `timeoutMs` (logged), or null. */
  async waitFor(what: string, candidates: readonly Candidate[], timeoutMs: number): Promise<Found | null> {
    const found = await waitForFirst(this.page, candidates, timeoutMs, { visible: true, enabled: true });
    if (found) this.matches.note(what, describeCandidate(found.candidate));
    return found;
  }

  /**
   * Clicks visible interstitials away (a few at most: one may reveal another), each only while
   * `stillWanted` says so; how many it clicked.
   */
  async clickAway(what: string, candidates: readonly Candidate[], rounds = 3, stillWanted: () => Promise<boolean> = async () => true): Promise<number> {
    let clicked = 0;
    for (let i = 0; i < rounds && (await stillWanted()); i++) {
      const found = await findFirst(this.page, candidates, { visible: true, enabled: true });
      if (!found) break;
      this.log.info(`${this.name}: ${what} "${found.candidate.text ?? found.candidate.selector}" clicked away`);
      await clickElement(found.element);
      clicked++;
      await sleep(200);
    }
    return clicked;
  }

  /** A toggle that is on gets clicked, and is expected to say it is off; true once it is off. */
  async switchOff(what: string, toggle: Toggle, visible = true): Promise<boolean> {
    const on = await findFirst(this.page, toggle.turnOff, { visible });
    if (!on) {
      const off = await findFirst(this.page, toggle.isOff);
      if (off) this.log.info(`${this.name}: ${what} already off (${describeCandidate(off.candidate)})`);
      else this.log.warn(`${this.name}: no ${what} toggle found`);
      return off !== null;
    }
    this.matches.note(`${what} toggle`, describeCandidate(on.candidate));
    await clickElement(on.element);
    if (await waitForFirst(this.page, toggle.isOff, 2000)) {
      this.log.info(`${this.name}: ${what} off`);
      return true;
    }
    this.log.warn(`${this.name}: the ${what} toggle did not turn off`);
    return false;
  }
}
