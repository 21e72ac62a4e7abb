/**
 * A bot's streaming: the sockets of its StreamingJob (one per distinct URL), meeting audio out in
 * 100 ms frames, speaker state out as text, input frames in for the bot's microphone, and the seconds
 * each direction was connected while recording (what is charged).
 */
import type { BotLog } from '../bot-log';
import type { StreamingJob } from '../../contract/bot-contract';
import { StreamSocket } from './stream-socket';
import { frameBytes, socketPlan, type Direction } from './wire';

export interface AudioStreamingOptions {
  readonly botId: string;
  readonly extraCa: string | null;
  /** the sockets may connect to public addresses only (net/customer-connections.ts) */
  readonly publicOnly: boolean;
  readonly log: BotLog;
  readonly onInput: (frame: Buffer) => void;
  readonly setupTimeoutMs?: number;
}

export class AudioStreaming {
  private readonly sockets: StreamSocket[];
  private recordingStartedAt: number | null = null;
  private framesSent = 0;
  private wrongSizeFrames = 0;
  /** the recording is paused (vc: the host withdrew the permission): no meeting audio leaves */
  private paused = false;

  constructor(
    readonly job: StreamingJob,
    private readonly opts: AudioStreamingOptions,
  ) {
    this.sockets = socketPlan(job).map(
      ({ url, directions }) =>
        new StreamSocket(url, directions, {
          botId: opts.botId,
          sampleRate: job.audio_frequency,
          offsetSeconds: () => (this.recordingStartedAt === null ? 0 : (Date.now() - this.recordingStartedAt) / 1000),
          extraCa: opts.extraCa,
          publicOnly: opts.publicOnly,
          onInput: directions.includes('input') ? opts.onInput : null,
          log: opts.log,
          setupTimeoutMs: opts.setupTimeoutMs ?? 10_000,
        }),
    );
  }

  get sampleRate(): number {
    return this.job.audio_frequency;
  }

  get hasInput(): boolean {
    return this.job.input_url !== null;
  }

  get hasOutput(): boolean {
    return this.job.output_url !== null;
  }

  /** Every socket connected, or an error saying which could not be set up (the others are closed). */
  async connect(): Promise<void> {
    const results = await Promise.allSettled(this.sockets.map((s) => s.open()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      this.close();
      throw failed.reason as Error;
    }
  }

  /** The recording started: frames flow from now on and connected time counts. */
  recordingStarted(at: number): void {
    this.recordingStartedAt = at;
    for (const s of this.sockets) s.startCounting();
  }

  /** While the recording is paused no audio goes out and no time is charged. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    for (const s of this.sockets) {
      if (paused) s.stopCounting();
      else s.startCounting();
    }
  }

  /** One 100 ms frame of meeting audio to the output socket(s); dropped while disconnected or paused. */
  sendAudio(frame: Buffer): void {
    if (this.paused) return;
    if (frame.length !== frameBytes(this.sampleRate)) {
      // never send a frame of another size: the receiver counts on exactly 100 ms
      if (this.wrongSizeFrames++ === 0) this.opts.log.warn(`streaming: a frame of ${frame.length} bytes dropped (want ${frameBytes(this.sampleRate)})`);
      return;
    }
    this.framesSent++;
    for (const s of this.carrying('output')) s.send(frame);
  }

  /** The page falls behind playing the input: stop reading it (true), or read on (false). */
  holdInput(held: boolean): void {
    for (const s of this.carrying('input')) s.holdInput(held);
  }

  get inputPaused(): boolean {
    return this.carrying('input').some((s) => s.inputPaused);
  }

  sendSpeakers(message: string): void {
    for (const s of this.carrying('output')) s.send(message);
  }

  connectedSeconds(): { input: number; output: number } {
    const of = (d: Direction) => Math.max(0, ...this.carrying(d).map((s) => s.connectedTime.seconds()));
    return { input: of('input'), output: of('output') };
  }

  close(): void {
    for (const s of this.sockets) s.close();
    if (this.framesSent > 0) this.opts.log.info(`streaming: ${this.framesSent} frames produced`);
  }

  private carrying(direction: Direction): StreamSocket[] {
    return this.sockets.filter((s) => s.directions.includes(direction));
  }
}
