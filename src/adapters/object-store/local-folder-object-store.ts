import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type DownloadLinkOptions, isSafeObjectKey, type ObjectStore } from './port';

const CONTENT_TYPE_SUFFIX = '.content-type';
const PARTIAL_MARK = '.partial-';

/** Makes the service's own signed link to a locally stored object (the service serves it). */
export type LocalLinkSigner = (objectKey: string, expiresAt: Date) => string;

/** The embedded default: artifacts under DATA_DIR/artifacts, content types beside them. */
export class LocalFolderObjectStore implements ObjectStore {
  constructor(
    private readonly root: string,
    private readonly signLink: LocalLinkSigner,
  ) {}

  private pathOf(objectKey: string): string {
    if (!isSafeObjectKey(objectKey)) throw new Error(`unsafe object key ${JSON.stringify(objectKey)}`);
    return path.join(this.root, ...objectKey.split('/'));
  }

  async put(objectKey: string, body: Readable | Buffer, contentType: string): Promise<{ sizeBytes: number }> {
    const file = this.pathOf(objectKey);
    // For the service's user only, like the rest of DATA_DIR.
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written aside and renamed, so a reader never sees half an artifact and a failed upload replaces nothing.
    const partial = `${file}${PARTIAL_MARK}${process.pid}-${Date.now()}`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(partial, { mode: 0o600 }));
      await writeFile(`${file}${CONTENT_TYPE_SUFFIX}`, contentType, { mode: 0o600 });
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { sizeBytes: (await stat(file)).size };
  }

  async get(objectKey: string) {
    const file = this.pathOf(objectKey);
    try {
      const info = await stat(file);
      const contentType = await readFile(`${file}${CONTENT_TYPE_SUFFIX}`, 'utf8').catch(() => 'application/octet-stream');
      return { body: createReadStream(file), sizeBytes: info.size, contentType };
    } catch {
      return null;
    }
  }

  async delete(objectKey: string): Promise<void> {
    const file = this.pathOf(objectKey);
    await rm(file, { force: true });
    await rm(`${file}${CONTENT_TYPE_SUFFIX}`, { force: true });
  }

  /** Every file under the prefix's folder goes, unfinished uploads (`.partial-*`) and content types included. */
  async deleteAll(prefix: string): Promise<readonly string[]> {
    const trimmed = prefix.replace(/\/+$/, '');
    const folder = this.pathOf(trimmed);
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const keys = entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(CONTENT_TYPE_SUFFIX) && !entry.name.includes(PARTIAL_MARK))
      .map((entry) => path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    await rm(folder, { recursive: true, force: true });
    return keys;
  }

  /** The service's artifact route serves it and decides the served type from what was stored. */
  async downloadUrl(objectKey: string, options: DownloadLinkOptions): Promise<string> {
    this.pathOf(objectKey);
    return this.signLink(objectKey, new Date(options.signedAt.getTime() + options.ttlSeconds * 1000));
  }
}
