import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { payloadTooLarge, unsupportedMediaType, validationError } from './api-error';

export interface ReadJsonBodyOptions {
  readonly maxBytes?: number;
  readonly maxDepth?: number;
  /** when true an empty body is a 400; otherwise it reads as `undefined` and the caller decides */
  readonly required?: boolean;
}

/** Only what the reader needs from koa's context, so any router's context fits. */
export type BodySource = Pick<Koa.Context, 'req' | 'get'>;

/**
 * Reads and parses a JSON request body without a body-parser package: content type, size, UTF-8 and
 * nesting are checked here so that every route refuses bad input the same way, with the spec's envelope.
 */
export const readJsonBody = async (ctx: BodySource, options: ReadJsonBodyOptions = {}): Promise<unknown> => {
  const { maxBytes = 1_000_000, maxDepth = 32, required = false } = options;
  checkContentType(ctx.get('content-type'));
  checkContentEncoding(ctx.get('content-encoding'));
  const declared = ctx.get('content-length');
  // A declared length above the limit is refused before a single byte is read.
  if (declared !== '' && Number(declared) > maxBytes) throw payloadTooLarge(maxBytes);

  const bytes = await readAtMost(ctx.req, maxBytes);
  const text = decodeUtf8(bytes);
  // Whitespace alone is no document: treated like an absent body rather than as malformed JSON.
  if (text.trim() === '') {
    if (required) throw validationError('body', 'must NOT be empty');
    return undefined;
  }
  if (nestingExceeds(text, maxDepth)) throw validationError('body', `must NOT be nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw validationError('body', `is not valid JSON: ${(error as Error).message}`);
  }
};

const checkContentType = (header: string): void => {
  if (header === '') return; // absent: the body is read as JSON, the only format this API speaks
  const [mediaType = '', ...params] = header.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') throw unsupportedMediaType(header);
  for (const param of params) {
    const eq = param.indexOf('=');
    const name = param.slice(0, eq < 0 ? undefined : eq).trim().toLowerCase();
    if (name !== 'charset') continue;
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (value !== 'utf-8' && value !== 'utf8') throw unsupportedMediaType(header);
  }
};

/** Compressed bodies would bypass the byte limit (a zip bomb); we do not inflate. */
const checkContentEncoding = (header: string): void => {
  const encoding = header.trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw unsupportedMediaType(`${header} encoding`, 'body must NOT be sent with a Content-Encoding');
  }
};

/**
 * Collects at most `maxBytes`. Past the limit it stops keeping chunks and lets the rest of the stream
 * drain unbuffered (the server's request timeout bounds a sender that never stops), so the 413 answer
 * reaches a client that is still sending instead of a reset connection.
 */
export const readAtMost = (req: IncomingMessage, maxBytes: number): Promise<Buffer> => {
  if (req.readableEnded) return Promise.reject(new Error('request body was already read'));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.resume();
        reject(payloadTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onAbort = () => {
      cleanup();
      reject(validationError('body', 'was not received completely'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export const decodeUtf8 = (bytes: Buffer): string => {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw validationError('body', 'is not valid UTF-8');
  }
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * One linear pass counting brackets outside strings, before JSON.parse: a 10k-deep document would
 * otherwise reach recursive code (ours or a codec's) and exhaust the stack. Malformed text is left to
 * JSON.parse; this only answers "deeper than allowed?".
 */
export const nestingExceeds = (text: string, maxDepth: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++; // the escaped character cannot end the string
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
};

