import type { BotJob, UploadTarget } from '../../contract/bot-contract';
import { FolderUploader } from './folder-uploader';
import { HttpUploader } from './http-uploader';
import { S3Uploader } from './s3-uploader';
import type { Uploader } from './uploader';

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
      return new S3Uploader(target, !(job.private_addresses_allowed ?? false));
  }
};

/** Where an artifact goes when its bucket keeps refusing it: the service, when the team allows it. */
export const makeSpillUploader = (target: UploadTarget, botId: string, patienceMs: number | null = null): Uploader | null =>
  target.kind === 's3' && target.spill ? httpUploader(target.spill, botId, patienceMs) : null;
