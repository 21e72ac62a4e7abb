import * as fs from 'node:fs';
import type { BotReport } from '../contract/bot-contract';
import type { Reporter } from './reporters/reporter';
import type { Uploader } from './uploaders/uploader';
import type { BotLog } from './bot-log';

type Body = Buffer | { readonly file: string };

/**
 * Uploads an artifact, then reports it (ArtifactReport). A failed upload is not fatal: with a spill target
 * (the team allows transient spill) the artifact goes to the service instead and is reported spilled;
 * otherwise it is reported failed, so that the bot's artifact list says it is lost.
 */
export class ArtifactStore {
  constructor(
    private readonly uploader: Uploader,
    private readonly reporter: Reporter,
    private readonly log: BotLog,
    private readonly clock: () => number = Date.now,
    private readonly spill: Uploader | null = null,
  ) {}

  private async put(uploader: Uploader, artifactType: string, key: string, contentType: string, body: Body): Promise<number> {
    if (Buffer.isBuffer(body)) {
      await uploader.upload(key, body, contentType, artifactType);
      return body.length;
    }
    await uploader.uploadFile(key, body.file, contentType, artifactType);
    return (await fs.promises.stat(body.file)).size;
  }

  private async report(report: BotReport): Promise<void> {
    try {
      await this.reporter.report(report);
    } catch (err) {
      this.log.error(`${report.kind} report for ${'key' in report ? report.key : ''} failed: ${(err as Error).message}`);
    }
  }

  /** Stores a buffer, or a local file when `body` is a path; true when something holds it now. */
  async store(artifactType: string, key: string, contentType: string, body: Body): Promise<boolean> {
    const artifact = { artifact_type: artifactType, key, content_type: contentType };
    let reason: string;
    try {
      const size = await this.put(this.uploader, artifactType, key, contentType, body);
      await this.report({ kind: 'artifact', ...artifact, size_bytes: size, at: this.now() });
      return true;
    } catch (err) {
      reason = (err as Error).message || String(err);
      this.log.error(`upload of ${key} failed: ${reason}`);
    }
    if (this.spill) {
      try {
        const size = await this.put(this.spill, artifactType, key, contentType, body);
        this.log.warn(`${key} is held by the service until the bucket accepts it`);
        await this.report({ kind: 'artifact_spilled', ...artifact, size_bytes: size, reason, at: this.now() });
        return true;
      } catch (err) {
        reason = `${reason}; the service could not hold a copy either: ${(err as Error).message}`;
        this.log.error(`spill of ${key} failed: ${(err as Error).message}`);
      }
    }
    await this.report({ kind: 'artifact_failed', ...artifact, reason, at: this.now() });
    return false;
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }
}
