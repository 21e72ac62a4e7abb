/**
 * The bot's pictures (`bot_image`): fetched by the bot over HTTPS before it joins, each checked to be a
 * JPEG, PNG or WebP by its first bytes (whatever the server's content-type says), and handed to the
 * page as data URLs. One that cannot be fetched or is not such an image is logged and left out; with
 * none left the bot joins without a picture.
 *
 * Every fetch is bounded (connection, headers, whole body, size; at most five images), follows the address
 * policy (net/customer-connections.ts), and stops at once when the run ends (a leave request), so that a
 * slow or silent server never holds the bot.
 */
import * as https from 'node:https';
import * as tls from 'node:tls';
import type { BotLog } from '../bot-log';
import { CustomerFacingError, customerFacingReason, socketOptionsFor } from '../net/customer-connections';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** the API takes 1 to 5; the bot never fetches more, whatever its job says */
export const MAX_IMAGES = 5;

export interface ImageFetchLimits {
  /** from the request to the TCP connection */
  readonly connectMs: number;
  /** from the request to the response's headers */
  readonly headersMs: number;
  /** from the request to the last byte */
  readonly totalMs: number;
  readonly maxBytes: number;
}

export const IMAGE_FETCH_LIMITS: ImageFetchLimits = { connectMs: 5_000, headersMs: 10_000, totalMs: 20_000, maxBytes: MAX_IMAGE_BYTES };

export interface ImageFetchOptions {
  /** PEM of an extra certificate authority (tests only, test-ca.ts); null: the system's */
  readonly extraCa: string | null;
  /** only public addresses (production); false when the service allowed private ones for this bot */
  readonly publicOnly: boolean;
  /** the run ends: every fetch stops */
  readonly signal: AbortSignal;
  readonly log: BotLog;
  readonly limits?: ImageFetchLimits;
}

/** The image type by its signature; null when it is none of the three. */
export const imageTypeOf = (bytes: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | null => {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
};

const seconds = (ms: number) => `${ms / 1000} s`;

const fetchBytes = (url: string, opts: ImageFetchOptions, limits: ImageFetchLimits): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return reject(new CustomerFacingError('not an https URL'));
    if (opts.signal.aborted) return reject(new CustomerFacingError('the bot is leaving'));
    let socketOptions;
    try {
      socketOptions = socketOptionsFor(parsed.hostname, opts.publicOnly);
    } catch (err) {
      return reject(err);
    }
    const timers: NodeJS.Timeout[] = [];
    const settle = () => {
      timers.forEach(clearTimeout);
      opts.signal.removeEventListener('abort', onAbort);
    };
    const fail = (err: Error) => {
      settle();
      req.destroy();
      reject(err);
    };
    const onAbort = () => fail(new CustomerFacingError('the bot is leaving'));
    const ca = opts.extraCa ? [...tls.rootCertificates, opts.extraCa] : undefined;
    // a socket of its own (no agent): the connection timer watches this request's connection
    const req = https.get(parsed, { ca, agent: false, ...socketOptions }, (res) => {
      clearTimeout(headersTimer);
      if (res.statusCode !== 200) return fail(new CustomerFacingError(`HTTP ${res.statusCode}`));
      if (Number(res.headers['content-length'] ?? 0) > limits.maxBytes) return fail(new CustomerFacingError(`larger than ${limits.maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxBytes) fail(new CustomerFacingError(`larger than ${limits.maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        settle();
        resolve(Buffer.concat(chunks));
      });
      res.on('error', fail);
    });
    const connectTimer = setTimeout(() => fail(new CustomerFacingError(`no connection within ${seconds(limits.connectMs)}`)), limits.connectMs);
    const headersTimer = setTimeout(() => fail(new CustomerFacingError(`no answer within ${seconds(limits.headersMs)}`)), limits.headersMs);
    timers.push(connectTimer, headersTimer, setTimeout(() => fail(new CustomerFacingError(`not received whole within ${seconds(limits.totalMs)}`)), limits.totalMs));
    req.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    req.on('error', fail);
    opts.signal.addEventListener('abort', onAbort, { once: true });
  });

/** The usable images as data URLs, in the request's order. */
export const fetchBotImages = async (urls: readonly string[], opts: ImageFetchOptions): Promise<string[]> => {
  const limits = opts.limits ?? IMAGE_FETCH_LIMITS;
  if (urls.length > MAX_IMAGES) opts.log.warn(`only the first ${MAX_IMAGES} of ${urls.length} bot images are used`);
  const results = await Promise.all(
    urls.slice(0, MAX_IMAGES).map(async (url, i) => {
      try {
        const bytes = await fetchBytes(url, opts, limits);
        const type = imageTypeOf(bytes);
        if (!type) throw new CustomerFacingError('not a JPEG, PNG or WebP image');
        opts.log.info(`bot image ${i + 1}: ${type}, ${bytes.length} bytes`);
        return `data:${type};base64,${bytes.toString('base64')}`;
      } catch (err) {
        opts.log.warn(`bot image ${i + 1} left out (${new URL(url).host}): ${customerFacingReason(err)}`);
        return null;
      }
    }),
  );
  return results.filter((r): r is string => r !== null);
};
