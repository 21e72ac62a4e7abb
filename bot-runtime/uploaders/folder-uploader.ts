import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Uploader } from './uploader';

/** UploadTarget kind `folder`: writes `<dir>/<key>`. */
export class FolderUploader implements Uploader {
  constructor(private readonly dir: string) {}

  private async target(key: string): Promise<string> {
    const root = path.resolve(this.dir);
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error(`artifact key escapes the folder: ${key}`);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return file;
  }

  async upload(key: string, body: Buffer): Promise<void> {
    await fs.promises.writeFile(await this.target(key), body);
  }

  async uploadFile(key: string, file: string): Promise<void> {
    await fs.promises.copyFile(file, await this.target(key));
  }
}
