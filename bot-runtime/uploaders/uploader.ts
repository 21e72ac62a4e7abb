/**
 * Stores artifacts under the bot's prefix; `key` may contain `/` (e.g. `audio_chunks/000001.webm`). The
 * artifact type decides the bucket where there are several (bucketRoleOf).
 */
export interface Uploader {
  upload(key: string, body: Buffer, contentType: string, artifactType: string): Promise<void>;
  /** Same, streaming a local file (recordings can be large). */
  uploadFile(key: string, file: string, contentType: string, artifactType: string): Promise<void>;
}
