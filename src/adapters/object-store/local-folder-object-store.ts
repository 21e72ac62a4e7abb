import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isSafeObjectKey, type ObjectStore } from './port';

/** The embedded default: artifacts under DATA_DIR/artifacts, content types beside them. */
export class LocalFolderObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private pathOf(objectKey: string): string {
    if (!isSafeObjectKey(objectKey)) throw new Error(`unsafe object key ${JSON.stringify(objectKey)}`);
    return path.join(this.root, ...objectKey.split('/'));
  }

  async put(objectKey: string, body: Readable | Buffer, contentType: string): Promise<{ sizeBytes: number }> {
    const file = this.pathOf(objectKey);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed, so a reader never sees half an artifact.
    const partial = `${file}.partial-${process.pid}-${Date.now()}`;
    await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(partial));
    await writeFile(`${file}.content-type`, contentType);
    await rename(partial, file);
    return { sizeBytes: (await stat(file)).size };
  }

  async get(objectKey: string) {
    const file = this.pathOf(objectKey);
    try {
      const info = await stat(file);
      const contentType = await readFile(`${file}.content-type`, 'utf8').catch(() => 'application/octet-stream');
      return { body: createReadStream(file), sizeBytes: info.size, contentType };
    } catch {
      return null;
    }
  }
}
