import type { IncomingMessage } from 'node:http';
import type { ObjectStore } from '../../adapters/object-store/port';
import { ApiError } from '../api-error';
import { artifactKindOfKey, guardedUpload, UploadRefused, type ArtifactSizeLimits } from './upload-limits';

/** What an upload through the service must stay within. */
export interface UploadGuards {
  /** the largest upload of each artifact kind */
  readonly limits: ArtifactSizeLimits;
  /** what is wrong with storing so many more bytes in the service's own store (null: nothing); null: it is not on this disk */
  readonly diskSpace: ((incomingBytes: number) => Promise<string | null>) | null;
}

export interface Upload {
  readonly store: ObjectStore;
  readonly objectKey: string;
  /** the bot's own key, which tells the artifact's kind */
  readonly key: string;
  /** the request's content-type and content-length headers ('' when absent) */
  readonly contentType: string;
  readonly declaredLength: string;
}

const refused = (err: UploadRefused): ApiError =>
  err.reason === 'too_large'
    ? new ApiError({ status: 413, code: 'FST_ERR_ARTIFACT_TOO_LARGE', message: err.message })
    : new ApiError({ status: 507, code: 'FST_ERR_INSUFFICIENT_STORAGE', message: err.message });

/**
 * Streams an upload into the store within its kind's size limit and the disk's free space: 413 or 507
 * otherwise, and nothing of it kept (the stores write aside and keep nothing of a failed upload).
 */
export const storeUpload = async (body: IncomingMessage, upload: Upload, guards: UploadGuards): Promise<void> => {
  const kind = artifactKindOfKey(upload.key);
  const maxBytes = guards.limits[kind];
  const tooLarge = () => `An artifact of kind ${kind} (${upload.key}) may be at most ${maxBytes} bytes`;
  const declared = Number(upload.declaredLength);
  const declaredBytes = upload.declaredLength !== '' && Number.isFinite(declared) ? declared : 0;
  try {
    if (declaredBytes > maxBytes) throw new UploadRefused('too_large', tooLarge());
    const { diskSpace } = guards;
    const problem = await diskSpace?.(declaredBytes);
    if (problem) throw new UploadRefused('disk_low', problem);
    const guard = guardedUpload({ maxBytes, tooLarge, diskLow: diskSpace && (() => diskSpace(0)) });
    // The guard may stop the upload before the store listens: its refusal is kept and answered, whatever the store says.
    let refusal: UploadRefused | null = null;
    guard.on('error', (err) => (refusal = err instanceof UploadRefused ? err : refusal));
    await upload.store.put(upload.objectKey, body.pipe(guard), upload.contentType || 'application/octet-stream').catch((err: unknown) => {
      throw refusal ?? err;
    });
  } catch (err) {
    throw err instanceof UploadRefused ? refused(err) : err;
  }
};
