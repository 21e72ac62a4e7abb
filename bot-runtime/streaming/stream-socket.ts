/**
 * One customer WebSocket of a bot: opened once before the bot joins (a failure there is the caller's
 * STREAMING_SETUP_FAILED), then kept: a drop reconnects with growing waits (1 s to 60 s) and a fresh
 * handshake while the bot records on; frames sent while it is down are dropped, as the wire format says.
 */
import * as tls from 'node:tls';
import WebSocket from 'ws';
import type { BotLog } from '../bot-log';
import { customerFacingReason, socketOptionsFor } from '../net/customer-connections';
import { ConnectedTime } from './connected-time';
import { handshake, MAX_MESSAGE_BYTES, reconnectDelayMs, type Direction } from './wire';

export interface StreamSocketOptions {
  readonly botId: string;
  readonly sampleRate: number;
  /** seconds of recording so far: the handshake's offset */
  readonly offsetSeconds: () => number;
  /** PEM of an extra certificate authority (test-only setting, see test-ca.ts); null: the system's */
  readonly extraCa: string | null;
  /** public addresses only (net/customer-connections.ts) */
  readonly publicOnly: boolean;
  /** binary frames received (input direction only) */
  readonly onInput: ((frame: Buffer) => void) | null;
  readonly log: BotLog;
  readonly setupTimeoutMs: number;
}

export class StreamSocket {
  private socket: WebSocket | null = null;
  private closing = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  readonly connectedTime = new ConnectedTime();
  /** the first connection succeeded: from then on a drop reconnects */
  private established = false;
  private inputHeld = false;

  constructor(
    readonly url: string,
    readonly directions: readonly Direction[],
    private readonly opts: StreamSocketOptions,
  ) {}

  private get label(): string {
    return `streaming ${this.directions.join('+')} ${redacted(this.url)}`;
  }

  /** The first connection; rejects with the reason (in words safe to show the customer) when it cannot be set up. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      let socket: WebSocket;
      try {
        socket = this.connect();
      } catch (err) {
        return reject(new Error(`${this.label}: ${customerFacingReason(err)}`));
      }
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`${this.label}: no connection within ${this.opts.setupTimeoutMs} ms`));
      }, this.opts.setupTimeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`${this.label}: ${customerFacingReason(err)}`));
      });
      socket.once('unexpected-response', (_req, res) => {
        clearTimeout(timer);
        socket.terminate();
        reject(new Error(`${this.label}: HTTP ${res.statusCode} instead of a WebSocket`));
      });
    });
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * Stops reading what the customer sends (the page cannot play it as fast): the kernel's buffers fill and
   * the sender is slowed down, instead of the bot queueing without end. Kept across reconnections.
   */
  holdInput(held: boolean): void {
    this.inputHeld = held;
    if (held) this.socket?.pause();
    else this.socket?.resume();
  }

  get inputPaused(): boolean {
    return this.socket?.isPaused ?? this.inputHeld;
  }

  send(data: Buffer | string): boolean {
    if (!this.isOpen) return false;
    this.socket!.send(data);
    return true;
  }

  startCounting(): void {
    this.connectedTime.startCounting();
  }

  stopCounting(): void {
    this.connectedTime.stopCounting();
  }

  close(): void {
    this.closing = true;
    this.connectedTime.stopCounting();
    if (this.retry) clearTimeout(this.retry);
    const socket = this.socket;
    if (!socket) return;
    if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'the bot left the meeting');
    else socket.terminate();
    this.connectedTime.disconnected();
  }

  /** Throws when the URL's host is a literal address the policy refuses. */
  private connect(): WebSocket {
    const ca = this.opts.extraCa ? [...tls.rootCertificates, this.opts.extraCa] : undefined;
    const socketOptions = socketOptionsFor(new URL(this.url).hostname, this.opts.publicOnly);
    const socket = new WebSocket(this.url, { ca, handshakeTimeout: this.opts.setupTimeoutMs, perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES, ...socketOptions });
    if (this.inputHeld) socket.pause();
    this.socket = socket;
    socket.binaryType = 'nodebuffer';
    let opened = false;
    socket.on('open', () => {
      opened = true;
      this.established = true;
      this.attempt = 0;
      this.connectedTime.connected();
      socket.send(handshake(this.opts.botId, this.opts.offsetSeconds(), this.opts.sampleRate));
      this.opts.log.info(`${this.label}: connected`);
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary && this.opts.onInput && this.directions.includes('input')) this.opts.onInput(data as Buffer);
    });
    socket.on('close', (code) => {
      if (this.socket !== socket) return;
      this.connectedTime.disconnected();
      if (this.closing || !this.established) return;
      if (opened) this.opts.log.warn(`${this.label}: closed (${code}); reconnecting`);
      this.scheduleReconnect();
    });
    // errors after the first connection end in 'close'; the first one is open()'s to report
    socket.on('error', (err) => this.opts.log.warn(`${this.label}: ${customerFacingReason(err)}`));
    return socket;
  }

  private scheduleReconnect(): void {
    const delay = reconnectDelayMs(this.attempt++);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.closing) return;
      try {
        this.connect();
      } catch (err) {
        this.opts.log.warn(`${this.label}: ${customerFacingReason(err)}`);
        this.scheduleReconnect();
      }
    }, delay);
  }
}

/** URLs can carry tokens in their query: the log shows only scheme, host and path. */
const redacted = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
};
