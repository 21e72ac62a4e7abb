import type { BotJob, UploadTarget } from '../../contract/bot-contract';
import { FolderUploader } from './folder-uploader';
import { HttpUploader } from './http-uploader';
import type { Uploader } from './uploader';

/**
 * The S3 uploader, loaded at its first upload: its client library (minio) is a large part of a bot process's
 * memory, which bots uploading through the service or into a folder need not pay. A `require` where it is
 * needed, because the compiled runtime evaluates such a module only when it is first required (and every
 * TypeScript loader here resolves it, which a relative `import()` is not under a CommonJS-only one).
 */
class BucketUploader implements Uploader {
  private loaded: Uploader | null = null;

  constructor(private readonly load: () => Uploader) {}

  private get uploader(): Uploader {
    this.loaded ??= this.load();
    return this.loaded;
  }

  upload(key: string, body: Buffer, contentType: string, artifactType: string): Promise<void> {
    return this.uploader.upload(key, body, contentType, artifactType);
  }

  uploadFile(key: string, file: string, contentType: string, artifactType: string): Promise<void> {
    return this.uploader.uploadFile(key, file, contentType, artifactType);
  }
}

const s3Uploader = (): typeof import('./s3-uploader').S3Uploader => (require('./s3-uploader') as typeof import('./s3-uploader')).S3Uploader;

const httpUploader = (target: { readonly baseUrl: string; readonly token: string }, botId: string, patienceMs: number | null) =>
  new HttpUploader({ baseUrl: target.baseUrl, token: target.token }, botId, ...(patienceMs === null ? [] : [patienceMs]));

/**
 * Where the job's artifacts go. `patienceMs`: how long an http upload waits for a service that cannot take
 * it (null: the default). A customer's bucket must be on a public address unless the job allows private ones.
 */
export const makeUploader = (job: Pick<BotJob, 'upload' | 'bot_id' | 'private_addresses_allowed'>, patienceMs: number | null = null): Uploader => {
  const { upload: target, bot_id: botId } = job;
  switch (target.kind) {
    case 'folder':
      return new FolderUploader(target.path);
    case 'http':
      return httpUploader(target, botId, patienceMs);
    case 's3':
      return new BucketUploader(() => new (s3Uploader())(target, !(job.private_addresses_allowed ?? false)));
  }
};

/** Where an artifact goes when its bucket keeps refusing it: the service, when the team allows it. */
export const makeSpillUploader = (target: UploadTarget, botId: string, patienceMs: number | null = null): Uploader | null =>
  target.kind === 's3' && target.spill ? httpUploader(target.spill, botId, patienceMs) : null;
