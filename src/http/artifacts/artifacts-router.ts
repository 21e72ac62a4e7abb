import Router from '@koa/router';
import type { ObjectStore } from '../../adapters/object-store/port';
import { isSafeObjectKey } from '../../adapters/object-store/port';
import { servedContentType } from '../../adapters/object-store/served-content-type';
import type { Signer } from '../../adapters/signing/signer';
import { ApiError } from '../api-error';
import type { AppState } from '../app-context';

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
