import Router from '@koa/router';
import type { ObjectStore } from '../../adapters/object-store/port';
import { isSafeObjectKey } from '../../adapters/object-store/port';
import type { Signer } from '../../adapters/signing/signer';
import { ApiError } from '../api-error';
import type { AppState } from '../app-context';

/**
 * Media types served as themselves, keyed by the bare type a bot declared (parameters dropped), valued by
 * exactly what we send. Covers what bot-runtime uploads (recording mp4/mpeg, audio chunks webm, screenshots
 * png, chat/participants json, bot.log text) plus transcripts. Anything else a bot claims (text/html,
 * image/svg+xml, …) would run as active content on the service's own origin, so it is sent as an opaque
 * download instead.
 */
const SERVED_TYPES: ReadonlyMap<string, string> = new Map([
  ['video/mp4', 'video/mp4'],
  ['video/webm', 'video/webm'],
  ['video/x-matroska', 'video/x-matroska'],
  ['audio/mpeg', 'audio/mpeg'],
  ['audio/webm', 'audio/webm'],
  ['audio/wav', 'audio/wav'],
  ['image/png', 'image/png'],
  ['image/jpeg', 'image/jpeg'],
  ['application/json', 'application/json'],
  ['application/x-ndjson', 'application/x-ndjson'],
  ['text/plain', 'text/plain; charset=utf-8'],
  ['text/vtt', 'text/vtt; charset=utf-8'],
]);

/** The content type and disposition an artifact is served with, whatever the bot declared. */
export const servedContentType = (declared: string, key: string): { readonly contentType: string; readonly disposition?: string } => {
  const bare = (declared.split(';')[0] ?? '').trim().toLowerCase();
  const served = SERVED_TYPES.get(bare);
  if (served) return { contentType: served };
  // Keys use a conservative alphabet (isSafeObjectKey), so the file name needs no escaping.
  const filename = key.split('/').pop() ?? 'artifact';
  return { contentType: 'application/octet-stream', disposition: `attachment; filename="${filename}"` };
};

const forbiddenLink = () => new ApiError({ status: 403, code: 'FST_ERR_FORBIDDEN', message: 'The link is invalid or has expired' });

/** Serves locally stored artifacts to whoever holds a signed, unexpired link (no API key needed). */
export const artifactsRouter = (objectStore: ObjectStore, signer: Signer, nowMs: () => number): Router<AppState> => {
  const router = new Router<AppState>();
  router.get('/artifacts/:bot_id/:key(.*)', async (ctx) => {
    const { bot_id: botId = '', key = '' } = ctx.params;
    const expires = Number(ctx.query.expires);
    const signature = typeof ctx.query.signature === 'string' ? ctx.query.signature : '';
    if (!isSafeObjectKey(key) || !Number.isInteger(expires) || !signer.isArtifactSignature(botId, key, expires, signature)) throw forbiddenLink();
    if (expires * 1000 < nowMs()) throw forbiddenLink();
    const object = await objectStore.get(`${botId}/${key}`);
    if (!object) throw new ApiError({ status: 404, code: 'FST_ERR_ARTIFACT_NOT_FOUND', message: 'Artifact not found' });
    const served = servedContentType(object.contentType, key);
    ctx.set('content-type', served.contentType);
    if (served.disposition) ctx.set('content-disposition', served.disposition);
    // Never sniffed into something executable, and no script, plugin or same-origin access even if opened directly.
    ctx.set('x-content-type-options', 'nosniff');
    ctx.set('content-security-policy', 'sandbox');
    ctx.set('content-length', String(object.sizeBytes));
    ctx.body = object.body;
  });
  return router;
};
