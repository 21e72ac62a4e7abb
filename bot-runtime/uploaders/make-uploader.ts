import type { UploadTarget } from '../contract';
import { FolderUploader } from './folder-uploader';
import { HttpUploader } from './http-uploader';
import type { Uploader } from './uploader';

/** `patienceMs`: how long an http upload waits for a service that cannot take it (null: the default). */
export const makeUploader = (target: UploadTarget, botId: string, patienceMs: number | null = null): Uploader =>
  target.kind === 'folder'
    ? new FolderUploader(target.path)
    : new HttpUploader({ baseUrl: target.baseUrl, token: target.token }, botId, ...(patienceMs === null ? [] : [patienceMs]));
