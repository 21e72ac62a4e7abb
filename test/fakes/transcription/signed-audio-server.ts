/**
 * Serves one recording at a signed URL, the way object storage serves a presigned GET: the right
 * signature gets the bytes, any other gets 403 AccessDenied.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class SignedAudioServer {
  private server: Server | null = null;
  private readonly signature = randomBytes(16).toString('hex');
  private readonly audio: Buffer;
  base = '';
  downloads = 0;

  constructor(file: string, private readonly contentType = 'audio/mpeg') {
    this.audio = readFileSync(file);
  }

  get signedUrl(): string {
    return `${this.base}/bot-1/recording.mp3?X-Amz-Signature=${this.signature}`;
  }

  /** the same object with a signature that is not valid */
  get forgedUrl(): string {
    return `${this.base}/bot-1/recording.mp3?X-Amz-Signature=${'0'.repeat(32)}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://audio.invalid');
      if (url.pathname !== '/bot-1/recording.mp3' || url.searchParams.get('X-Amz-Signature') !== this.signature) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      }
      this.downloads++;
      res.writeHead(200, { 'content-type': this.contentType, 'content-length': this.audio.length });
      res.end(this.audio);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
