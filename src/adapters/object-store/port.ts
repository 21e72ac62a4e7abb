import type { Readable } from 'node:stream';

export interface StoredObject {
  readonly body: Readable;
  readonly sizeBytes: number;
  readonly contentType: string;
}

export interface DownloadLinkOptions {
  readonly contentType: string;
  readonly signedAt: Date;
  readonly ttlSeconds: number;
}

/** Artifacts of bots, addressed by `<bot_id>/<key>`. */
export interface ObjectStore {
  /** Streams `body` in; large objects go in parts, so memory stays bounded whatever the size. */
  put(objectKey: string, body: Readable | Buffer, contentType: string): Promise<{ readonly sizeBytes: number }>;
  /** null when absent */
  get(objectKey: string): Promise<StoredObject | null>;
  /** Removes the object; an object that is already gone is no error (deleting twice is deleting once). */
  delete(objectKey: string): Promise<void>;
  /**
   * Removes every object whose key starts with `prefix` (a bot's `<bot_id>/`), and what an upload left
   * unfinished under it where the store has such a thing; answers the keys of the objects removed. Nothing
   * there is no error.
   */
  deleteAll(prefix: string): Promise<readonly string[]>;
  /**
   * A URL that downloads the object without any credential for `ttlSeconds` after `signedAt`, served as a
   * safe type for what the uploader declared (`contentType`). The store that holds the object signs it, so
   * downloads never pass through the service unless the service is the store.
   */
  downloadUrl(objectKey: string, options: DownloadLinkOptions): Promise<string>;
}

/** Why a store could not do what was asked, in terms a caller can act on (never a 5xx for the customer's bucket). */
export type ObjectStoreFailure = 'access_denied' | 'no_such_bucket' | 'unreachable' | 'refused_address' | 'invalid' | 'other';

export class ObjectStoreError extends Error {
  constructor(
    readonly failure: ObjectStoreFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ObjectStoreError';
  }
}

/** Keys the bot may write: relative, no `..`, a conservative alphabet so they are safe as paths and URLs. */
export const isSafeObjectKey = (key: string): boolean =>
  key.length > 0 &&
  key.length <= 512 &&
  /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) &&
  !key.split('/').some((part) => part === '.' || part === '..');
