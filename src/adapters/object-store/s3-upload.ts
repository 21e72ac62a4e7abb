import { Readable } from 'node:stream';
import type * as Minio from 'minio';
import { failureOf } from './s3-errors';

/** S3 refuses parts under 5 MiB (all but the last). */
export const MIN_PART_SIZE = 5 * 2 ** 20;
export const DEFAULT_PART_SIZE = 16 * 2 ** 20;

/** The body in pieces of exactly `size` bytes (the last one shorter): one piece in memory at a time. */
async function* piecesOf(body: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of body) {
    let rest = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    while (heldBytes + rest.length >= size) {
      const take = size - heldBytes;
      yield Buffer.concat([...held, rest.subarray(0, take)]);
      held = [];
      heldBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      held.push(rest);
      heldBytes += rest.length;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held);
}

export interface RetryPolicy {
  /** tries of each request (a part, the single put, the start and the end of a multipart upload) */
  readonly attempts: number;
  /** wait before the n-th retry (the last value repeats) */
  readonly backoffMs: readonly number[];
}

export const NO_RETRY: RetryPolicy = { attempts: 1, backoffMs: [] };

/** Only what may pass: the network, a timeout, a server error. A refusal stays a refusal. */
const isTransient = (error: unknown): boolean => {
  const failure = failureOf(error);
  return failure === 'unreachable' || failure === 'other';
};

const withRetries = async <A>(policy: RetryPolicy, request: () => Promise<A>): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= policy.attempts || !isTransient(error)) throw error;
      const wait = policy.backoffMs[Math.min(attempt - 1, policy.backoffMs.length - 1)] ?? 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
};

/**
 * Puts an object with nothing but PutObject and, for a body larger than one part, a multipart upload that
 * is aborted if anything fails (AbortMultipartUpload): no listing of uploads, so a put-only key can do it.
 * minio's own `putObject` lists unfinished uploads first and, with an unknown size, buffers parts of about
 * 500 MiB. Each request is retried on its own (a part that failed is sent again, not the whole object)
 * while the failure may pass. Returns the number of bytes stored.
 */
export const putInParts = async (
  client: Minio.Client,
  bucket: string,
  key: string,
  body: Readable | Buffer,
  contentType: string,
  partSize: number = DEFAULT_PART_SIZE,
  retry: RetryPolicy = NO_RETRY,
): Promise<number> => {
  if (partSize < MIN_PART_SIZE) throw new Error(`part size must be at least ${MIN_PART_SIZE} bytes`);
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
  const pieces = piecesOf(source, partSize);
  const headers = { 'Content-Type': contentType };
  let uploadId: string | null = null;
  try {
    const first = await pieces.next();
    const firstPiece = first.done ? Buffer.alloc(0) : first.value;
    const second = first.done ? first : await pieces.next();
    if (second.done) {
      await withRetries(retry, () => client.putObject(bucket, key, firstPiece, firstPiece.length, headers));
      return firstPiece.length;
    }
    uploadId = await withRetries(retry, () => client.initiateNewMultipartUpload(bucket, key, headers));
    const parts: { part: number; etag: string }[] = [];
    let size = 0;
    const upload = async (piece: Buffer) => {
      const part = parts.length + 1;
      const { etag } = await withRetries(retry, () =>
        client.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId!, partNumber: part, headers: { 'Content-Length': piece.length } }, piece),
      );
      parts.push({ part, etag });
      size += piece.length;
    };
    await upload(firstPiece);
    await upload(second.value);
    for await (const piece of pieces) await upload(piece);
    await withRetries(retry, () => client.completeMultipartUpload(bucket, key, uploadId!, parts));
    return size;
  } catch (error) {
    source.destroy();
    // The parts stored so far are discarded; an upload that cannot even be aborted expires by the bucket's rules.
    if (uploadId !== null) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    throw error;
  }
};
