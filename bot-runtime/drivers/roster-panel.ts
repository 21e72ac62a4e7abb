/**
 * Reading the roster where the client shows one side panel at a time (Meet, Teams): the panel is
 * opened by its button when the roster is due (roster-watch.ts), its names noted, and the panel the
 * driver keeps open (the chat) opened again. Runs as one of the driver's actions, in the background
 * when a read finds the roster due (a read must not wait for panels to open).
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { DriverActions } from './driver-actions';
import { rosterExpression, type HeadCountConfig, type RosterRead, type RosterReaderConfig } from './in-page/roster';
import { clickElement, describeCandidate, findFirst, waitForFirst, type Candidate } from './page-actions';
import type { PageReading } from './page-reading';
import type { RosterWatch } from './roster-watch';
import { botRealm } from './bot-realm';

export interface RosterPanelParts {
  /** the button that opens the panel */
  readonly button: readonly Candidate[];
  readonly roster: RosterReaderConfig;
  readonly headCount: HeadCountConfig;
  /** the button must be visible (Teams); Meet's may sit in a hidden toolbar, woken first */
  readonly visibleButton?: boolean;
  /** e.g. move the mouse to show a toolbar */
  readonly beforeButton?: () => Promise<void>;
  /** a name as the driver keeps it (Teams: without its suffixes) */
  readonly name?: (raw: string) => string;
  /** opens the panel the driver keeps open, after the roster was read */
  readonly reopen: () => Promise<unknown>;
}

export class RosterPanel {
  private reading: Promise<void> | null = null;

  constructor(
    private readonly driver: string,
    private readonly page: Page,
    private readonly log: BotLog,
    private readonly actions: DriverActions,
    private readonly pageReading: PageReading,
    readonly watch: RosterWatch,
    private readonly parts: RosterPanelParts,
  ) {}

  /** the open panel's names, as the driver keeps them (for a read that finds the panel open) */
  names(read: RosterRead): string[] | null {
    return read.names === null ? null : read.names.map(this.parts.name ?? ((n) => n));
  }

  /** Reads the roster in the background unless a reading is under way. */
  soon(): void {
    if (this.reading) return;
    this.reading = this.actions
      .exclusive(async () => {
        await this.read();
        await this.parts.reopen();
      })
      .catch((err: Error) => this.log.warn(`${this.driver}: roster not read: ${err.message}`))
      .finally(() => (this.reading = null));
  }

  /** Opens the panel (unless it is open or was read a moment ago) and notes its names. */
  async read(): Promise<void> {
    if (this.watch.fresh(Date.now())) return;
    if (!(await findFirst(this.page, [{ selector: this.parts.roster.item }]))) {
      await this.parts.beforeButton?.();
      const button = await findFirst(this.page, this.parts.button, { visible: this.parts.visibleButton ?? false });
      if (!button) {
        this.log.warn(`${this.driver}: no roster button: participants from the tiles only`);
        this.watch.note([], Date.now());
        return;
      }
      this.actions.matches.note('roster button', describeCandidate(button.candidate));
      await clickElement(button.element);
      if (!(await waitForFirst(this.page, [{ selector: this.parts.roster.item }], 3000))) {
        this.log.warn(`${this.driver}: the roster panel did not list anyone`);
        this.watch.note([], Date.now());
        return;
      }
    }
    const { frame } = await this.pageReading.scan();
    const read = (await botRealm(frame).evaluate(rosterExpression(this.parts.roster, this.parts.headCount))) as RosterRead;
    if (read.names) this.actions.matches.note('roster', this.parts.roster.item);
    this.watch.note(this.names(read) ?? [], Date.now());
  }
}
