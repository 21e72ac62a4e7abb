/**
 * The bot's pictures (`bot_image`): fetched by the bot over HTTPS before it joins, each checked to be a
 * JPEG, PNG or WebP by its first bytes (whatever the server's content-type says), and handed to the
 * page as data URLs. One that cannot be fetched or is not such an image is logged and left out; with
 * none left the bot joins without a picture.
 */
import * as https from 'node:https';
import * as tls from 'node:tls';
import type { BotLog } from '../bot-log';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

/** The image type by its signature; null when it is none of the three. */
export const imageTypeOf = (bytes: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | null => {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
};

const fetchBytes = (url: string, extraCa: string | null): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return reject(new Error('not an https URL'));
    const ca = extraCa ? [...tls.rootCertificates, extraCa] : undefined;
    const req = https.get(parsed, { ca, timeout: FETCH_TIMEOUT_MS }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`HTTP ${res.statusCode}`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_IMAGE_BYTES) req.destroy(new Error(`larger than ${MAX_IMAGE_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${FETCH_TIMEOUT_MS} ms`)));
    req.on('error', reject);
  });

/** The usable images as data URLs, in the request's order. */
export const fetchBotImages = async (urls: readonly string[], extraCa: string | null, log: BotLog): Promise<string[]> => {
  const results = await Promise.all(
    urls.map(async (url, i) => {
      try {
        const bytes = await fetchBytes(url, extraCa);
        const type = imageTypeOf(bytes);
        if (!type) throw new Error('not a JPEG, PNG or WebP image');
        log.info(`bot image ${i + 1}: ${type}, ${bytes.length} bytes`);
        return `data:${type};base64,${bytes.toString('base64')}`;
      } catch (err) {
        log.warn(`bot image ${i + 1} left out (${new URL(url).host}): ${(err as Error).message}`);
        return null;
      }
    }),
  );
  return results.filter((r): r is string => r !== null);
};
