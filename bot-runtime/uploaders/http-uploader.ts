import * as fs from 'node:fs';
import { Readable } from 'node:stream';
import { internalPaths } from '../../contract/bot-contract';
import { callService, DEFAULT_SERVICE_PATIENCE_MS, type HttpTarget } from '../http-client';
import type { Uploader } from './uploader';

/**
 * UploadTarget kind `http`: `PUT {baseUrl}/internal/bots/{bot_id}/artifacts/{key}` with the raw bytes,
 * tried again for `retryForMs` while the service cannot take it.
 */
export class HttpUploader implements Uploader {
  constructor(
    private readonly target: HttpTarget,
    private readonly botId: string,
    private readonly retryForMs: number = DEFAULT_SERVICE_PATIENCE_MS,
  ) {}

  private path(key: string): string {
    return internalPaths.artifact(this.botId, key.split('/').map(encodeURIComponent).join('/'));
  }

  async upload(key: string, body: Buffer, contentType: string): Promise<void> {
    await callService(this.target, 'PUT', this.path(key), { body, contentType, timeoutMs: 120_000, retryForMs: this.retryForMs });
  }

  async uploadFile(key: string, file: string, contentType: string): Promise<void> {
    const { size } = await fs.promises.stat(file);
    await callService(this.target, 'PUT', this.path(key), {
      body: () => Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
      contentType,
      timeoutMs: Math.max(120_000, size / 1000), // at least 1 MB/s
      retryForMs: this.retryForMs,
    });
  }
}
