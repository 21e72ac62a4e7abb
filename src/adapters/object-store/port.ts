import type { Readable } from 'node:stream';

/** Artifacts of bots, addressed by `<bot_id>/<key>`. */
export interface ObjectStore {
  put(objectKey: string, body: Readable | Buffer, contentType: string): Promise<{ readonly sizeBytes: number }>;
  /** null when absent */
  get(objectKey: string): Promise<{ readonly body: Readable; readonly sizeBytes: number; readonly contentType: string } | null>;
}

/** Keys the bot may write: relative, no `..`, a conservative alphabet so they are safe as paths and URLs. */
export const isSafeObjectKey = (key: string): boolean =>
  key.length > 0 &&
  key.length <= 512 &&
  /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) &&
  !key.split('/').some((part) => part === '.' || part === '..');
