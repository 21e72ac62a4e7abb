import type Koa from 'koa';
import { ApiError, toEnvelope } from '../api-error';
import type { AppState } from '../app-context';

const isHttpError = (error: unknown): error is { status: number; expose?: boolean; message: string } =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';

/**
 * Every error leaves in the spec's envelope. Errors we did not anticipate are logged with their stack
 * and answered 500 without details: the caller gets a request id to quote, never our internals.
 */
export const errorEnvelope = (): Koa.Middleware<AppState> => async (ctx, next) => {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new ApiError({ status: 404, code: 'FST_ERR_NOT_FOUND', message: `Route ${ctx.method}:${ctx.path} not found` });
    }
  } catch (error) {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (isHttpError(error) && error.status >= 400 && error.status < 500) {
      apiError = new ApiError({ status: error.status, code: 'FST_ERR_BAD_REQUEST', message: error.expose ? error.message : 'Bad request' });
    } else {
      ctx.state.log?.error({ err: error }, 'unhandled error');
      apiError = new ApiError({ status: 500, code: 'FST_ERR_INTERNAL', message: `Internal error (request id ${ctx.state.requestId})` });
    }
    ctx.status = apiError.status;
    ctx.body = toEnvelope(apiError);
    if (apiError.retryAfter !== undefined) ctx.set('Retry-After', String(apiError.retryAfter));
  }
};
