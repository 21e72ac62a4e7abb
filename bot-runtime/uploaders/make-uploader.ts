import type { UploadTarget } from '../contract';
import { FolderUploader } from './folder-uploader';
import { HttpUploader } from './http-uploader';
import { S3Uploader } from './s3-uploader';
import type { Uploader } from './uploader';

export const makeUploader = (target: UploadTarget, botId: string): Uploader => {
  switch (target.kind) {
    case 'folder':
      return new FolderUploader(target.path);
    case 'http':
      return new HttpUploader({ baseUrl: target.baseUrl, token: target.token }, botId);
    case 's3':
      return new S3Uploader(target);
  }
};

/** Where an artifact goes when its bucket keeps refusing it: the service, when the team allows it. */
export const makeSpillUploader = (target: UploadTarget, botId: string): Uploader | null =>
  target.kind === 's3' && target.spill ? new HttpUploader({ baseUrl: target.spill.baseUrl, token: target.spill.token }, botId) : null;
