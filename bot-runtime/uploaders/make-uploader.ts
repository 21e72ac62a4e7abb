import type { UploadTarget } from '../contract';
import { FolderUploader } from './folder-uploader';
import { HttpUploader } from './http-uploader';
import type { Uploader } from './uploader';

export const makeUploader = (target: UploadTarget, botId: string): Uploader =>
  target.kind === 'folder' ? new FolderUploader(target.path) : new HttpUploader({ baseUrl: target.baseUrl, token: target.token }, botId);
