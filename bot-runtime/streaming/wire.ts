/**
 * The streaming wire format (Meeting BaaS's, research/transcription-streaming.md C.1): on every
 * connection a text handshake, then binary S16LE mono frames of exactly 100 ms; speaker state as JSON
 * text frames; input frames are S16LE mono at the same rate. Pure.
 */
import type { StreamingJob } from '../../contract/bot-contract';

export const PROTOCOL_VERSION = 2;
export const FRAME_MS = 100;

export type Direction = 'input' | 'output';

/** bytes of one 100 ms frame: rate / 10 samples of 2 bytes (4,800 at 24 kHz) */
export const frameBytes = (sampleRate: number): number => (sampleRate / (1000 / FRAME_MS)) * 2;

/** The highest rate a bot streams at (16, 24, 32 or 48 kHz). */
export const MAX_SAMPLE_RATE = 48_000;

/**
 * The largest message the bot takes from a customer's socket: four 100 ms frames at the highest rate
 * (38,400 bytes), room for a sender that batches a little. A larger one closes the connection (1009, then
 * the usual reconnection) instead of being buffered whole, as the socket library's 100 MiB default would.
 */
export const MAX_MESSAGE_BYTES = 4 * frameBytes(MAX_SAMPLE_RATE);

/** `offset`: seconds of recording before this connection's first frame (0 before the recording starts). */
export const handshake = (botId: string, offsetSeconds: number, sampleRate: number): string =>
  JSON.stringify({ protocol_version: PROTOCOL_VERSION, bot_id: botId, offset: Math.round(offsetSeconds * 1000) / 1000, sample_rate: sampleRate });

export interface SpeakerState {
  readonly name: string;
  readonly id: number | null;
  /** unix seconds */
  readonly timestamp: number;
  readonly isSpeaking: boolean;
}

/** One text frame: every participant the bot sees and whether they speak now. */
export const speakerStateMessage = (speakers: readonly SpeakerState[]): string => JSON.stringify(speakers);

/** The sockets to open: one per distinct URL, with the directions it carries (one socket when both URLs are the same). */
export const socketPlan = (streaming: StreamingJob): { readonly url: string; readonly directions: readonly Direction[] }[] => {
  const plan: { url: string; directions: Direction[] }[] = [];
  const add = (url: string | null, direction: Direction) => {
    if (url === null) return;
    const same = plan.find((s) => s.url === url);
    if (same) same.directions.push(direction);
    else plan.push({ url, directions: [direction] });
  };
  add(streaming.output_url, 'output');
  add(streaming.input_url, 'input');
  return plan;
};

/** Reconnection waits: 1 s, 2 s, 4 s … at most 60 s (attempt counts from 0). */
export const reconnectDelayMs = (attempt: number): number => Math.min(60_000, 1000 * 2 ** Math.min(attempt, 6));
