/**
 * The browser tab of a run: the meeting page's driver and what works on the page (chat sender,
 * recorder, screenshots, page watcher). Built first and prepared after, so that a tab whose preparation failed
 * is still looked at, left and finished at the end like any other.
 */
import type { Page } from 'puppeteer-core';
import type { ArtifactStore } from '../artifacts';
import type { BotLog } from '../bot-log';
import { BotWorld } from '../browser/bot-world';
import type { RecordingMode } from '../../contract/bot-contract';
import type { EndCause } from '../end-codes';
import type { DriverFamily, PageDriver } from '../drivers/page-driver';
import type { BotMedia } from '../media/bot-media';
import { ChatSender } from '../meeting/chat-sender';
import { pageWatcherSource, WAKE_BINDING } from '../meeting/page-watcher';
import { Recorder } from '../recorder/recorder';
import { Screenshots } from '../screenshots';
import { isPlatformPage, MAX_PAGE_IMAGE_BYTES } from './diagnostics';

export interface MeetingTabOptions {
  readonly botName: string;
  readonly recordingMode: RecordingMode;
  readonly chunkSeconds: number;
  readonly screenshotSeconds: number;
  readonly chatConfirmMs: number;
  /** where the recorder keeps its work file */
  readonly workDir: string;
}

export class MeetingTab {
  readonly driver: PageDriver;
  readonly chat: ChatSender;
  readonly recorder: Recorder;
  /** only once prepared: a tab that failed to prepare never showed the meeting */
  private screenshots: Screenshots | null = null;

  constructor(
    readonly page: Page,
    private readonly family: DriverFamily,
    private readonly options: MeetingTabOptions,
    private readonly artifacts: ArtifactStore,
    private readonly log: BotLog,
    requestEnd: (cause: EndCause) => void,
    private readonly media: BotMedia | null = null,
  ) {
    page.on('pageerror', (err) => log.warn(`page error: ${(err as Error).message}`));
    page.on('error', (err) => requestEnd({ kind: 'internal_error', message: `The meeting page crashed: ${err.message}` }));
    this.driver = family.open(page, log);
    this.chat = new ChatSender(this.driver.chat, options.botName, options.chatConfirmMs);
    this.recorder = new Recorder(
      { mode: options.recordingMode, chunkSeconds: options.chunkSeconds, workDir: options.workDir, streamTap: media?.tapsAudio ?? false },
      artifacts,
      log,
    );
  }

  /** Before navigating: the recorder and the page watcher must be in every document the tab loads. */
  async prepare(onPageChange: () => void): Promise<void> {
    // the meeting's tab is the one in front, as a person's is: it has the focus (document.hasFocus())
    await this.page.bringToFront();
    // the bot's scripts run in a world of their own, which the page's scripts cannot see
    const world = await BotWorld.open(this.page, this.log);
    await this.media?.install(this.page, world);
    await this.recorder.install(world);
    await world.expose(WAKE_BINDING, onPageChange);
    await world.addScript(pageWatcherSource);
    this.screenshots = new Screenshots(() => this.screenshot(), this.artifacts, this.log, this.options.screenshotSeconds);
  }

  startScreenshots(): void {
    this.screenshots?.start();
  }

  get isOpen(): boolean {
    return !this.page.isClosed();
  }

  /** The page shown is one of the platform's own (diagnostics.ts): only those are ever kept. */
  onPlatformPage(): boolean {
    return isPlatformPage(this.page.url(), this.family);
  }

  /**
   * One screenshot now, whether or not periodic ones are on (a diagnostic needs it); null when the page is
   * not the platform's, or the image is over the cap.
   */
  async screenshot(): Promise<Buffer | null> {
    if (!this.onPlatformPage()) return null;
    const png = Buffer.from(await this.page.screenshot({ type: 'png' }));
    return png.length <= MAX_PAGE_IMAGE_BYTES ? png : null;
  }

  /** Stops the periodic screenshots and takes a last one while the page still shows the meeting. */
  async lastScreenshot(): Promise<void> {
    if (!this.screenshots) return;
    await this.screenshots.stop();
    if (this.isOpen) await this.screenshots.take();
  }

  /**
   * Leaves the meeting: the leave button when the bot is in the call; then the page goes away, which
   * also takes the bot out of a lobby or a waiting screen (the platform hears of it on pagehide).
   */
  async leave(inCall: boolean): Promise<void> {
    if (!this.isOpen) return;
    if (inCall && (await this.driver.leaveCall().catch(() => false))) this.log.info('left the call');
    try {
      await this.page.goto('about:blank', { timeout: 5000 });
    } catch (err) {
      this.log.warn(`leaving the page: ${(err as Error).message}`);
    }
  }
}
