import * as fs from 'node:fs';
import type { Reporter } from './reporters/reporter';
import type { Uploader } from './uploaders/uploader';
import type { BotLog } from './bot-log';

/** Uploads an artifact, then reports it (ArtifactReport). A failed upload is logged, not fatal. */
export class ArtifactStore {
  constructor(
    private readonly uploader: Uploader,
    private readonly reporter: Reporter,
    private readonly log: BotLog,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Stores a buffer, or a local file when `body` is a path. */
  async store(artifactType: string, key: string, contentType: string, body: Buffer | { readonly file: string }): Promise<boolean> {
    let size: number;
    try {
      if (Buffer.isBuffer(body)) {
        await this.uploader.upload(key, body, contentType);
        size = body.length;
      } else {
        await this.uploader.uploadFile(key, body.file, contentType);
        size = (await fs.promises.stat(body.file)).size;
      }
    } catch (err) {
      this.log.error(`upload of ${key} failed: ${(err as Error).message}`);
      return false;
    }
    try {
      await this.reporter.report({
        kind: 'artifact',
        artifact_type: artifactType,
        key,
        content_type: contentType,
        size_bytes: size,
        at: new Date(this.clock()).toISOString(),
      });
    } catch (err) {
      this.log.error(`artifact report for ${key} failed: ${(err as Error).message}`);
    }
    return true;
  }
}
