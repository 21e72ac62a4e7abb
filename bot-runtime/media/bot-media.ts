/**
 * The node side of the bot's own media in the meeting page: installs the in-page scripts in every
 * document (the streaming tap in the bot's world, the microphone and camera in the page's own, only when
 * the bot brings them), passes tapped frames to the streaming sockets, plays input frames into the
 * microphone in order, and sends speaker state when it changes.
 */
import type { Page } from 'puppeteer-core';
import type { BotLog } from '../bot-log';
import type { PageWorld } from '../browser/bot-world';
import type { BotImageConfigJob } from '../../contract/bot-contract';
import type { OwnMedia } from '../drivers/page-driver';
import type { AudioStreaming } from '../streaming/audio-streaming';
import { InputFlow } from '../streaming/input-flow';
import { inPageMediaSource, inPageTapSource, STREAM_AUDIO_BINDING } from '../streaming/in-page-media';
import { speakerStateMessage, type SpeakerState } from '../streaming/wire';

export interface BotMediaOptions {
  readonly streaming: AudioStreaming | null;
  /** data URLs of the bot's pictures (already checked); empty: no camera */
  readonly images: readonly string[];
  readonly imageConfig: BotImageConfigJob;
  readonly log: BotLog;
}

export class BotMedia {
  private page: Page | null = null;
  private playing: Promise<unknown> = Promise.resolve();
  private lastSpeakers = '';
  private inputFrames = 0;
  private readonly inputFlow = new InputFlow((held) => this.opts.streaming?.holdInput(held));

  constructor(private readonly opts: BotMediaOptions) {}

  /** the recorder should feed the streaming tap */
  get tapsAudio(): boolean {
    return this.opts.streaming?.hasOutput ?? false;
  }

  /** what the bot brings into the meeting: the driver leaves these on */
  get own(): OwnMedia {
    return { microphone: this.opts.streaming?.hasInput ?? false, camera: this.opts.images.length > 0 };
  }

  /** Before navigating: the functions and the scripts then exist in every document of the page. */
  async install(page: Page, world: PageWorld): Promise<void> {
    this.page = page;
    const { streaming, images, imageConfig } = this.opts;
    const rate = streaming?.sampleRate ?? 16000;
    if (streaming?.hasOutput) {
      await world.expose(STREAM_AUDIO_BINDING, (b64: string) => streaming.sendAudio(Buffer.from(b64, 'base64')));
      await world.addScript(inPageTapSource(rate));
    }
    if (!streaming?.hasInput && images.length === 0) return;
    await page.evaluateOnNewDocument(inPageMediaSource({ rate, microphone: streaming?.hasInput ?? false, camera: images.length > 0 }));
    if (images.length > 0) {
      const intervalMs = imageConfig.interval_seconds * 1000;
      // the pictures go in with every document, after the script that receives them
      await page.evaluateOnNewDocument(
        `window.__botMedia && window.__botMedia.setImages(${JSON.stringify(images)}, ${JSON.stringify(imageConfig.mode)}, ${intervalMs});`,
      );
    }
  }

  /**
   * An input frame from the customer: played into the microphone after the ones before it. When the page
   * falls behind (frames waiting to be handed over, or seconds of audio waiting to be played), the bot stops
   * reading the socket until it catches up (input-flow.ts).
   */
  playInput(frame: Buffer): void {
    const page = this.page;
    if (!page || page.isClosed()) return;
    this.inputFrames++;
    this.inputFlow.handing();
    const b64 = frame.toString('base64');
    this.playing = this.playing
      .then(() => page.evaluate((data: string) => (window as unknown as { __botMedia?: { play(d: string): number } }).__botMedia?.play(data) ?? 0, b64))
      .then(
        (aheadSeconds) => this.inputFlow.handed(Number(aheadSeconds) || 0),
        () => this.inputFlow.handed(0),
      );
  }

  /** Who is there and who speaks, sent only when it changed. */
  sendSpeakers(names: readonly string[], activeSpeaker: string | null, now: number): void {
    const streaming = this.opts.streaming;
    if (!streaming?.hasOutput) return;
    const key = JSON.stringify([names, activeSpeaker]);
    if (key === this.lastSpeakers) return;
    this.lastSpeakers = key;
    const state: SpeakerState[] = names.map((name) => ({ name, id: null, timestamp: now / 1000, isSpeaking: name === activeSpeaker }));
    streaming.sendSpeakers(speakerStateMessage(state));
  }

  close(): void {
    this.inputFlow.close();
    if (this.inputFrames > 0) this.opts.log.info(`streaming: ${this.inputFrames} input frames played`);
  }
}
