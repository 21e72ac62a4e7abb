import { STATUS_CODES } from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import { ApiError, methodNotAllowed, toEnvelope } from '../api-error';
import type { AppState } from '../app-context';

const isHttpError = (error: unknown): error is { status: number; expose?: boolean; message: string } =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';

/** Codes for error statuses raised outside our own ApiErrors (koa, routers, `ctx.status = n` without a body). */
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  401: 'FST_ERR_UNAUTHORIZED',
  403: 'FST_ERR_FORBIDDEN',
  404: 'FST_ERR_NOT_FOUND',
  405: 'FST_ERR_METHOD_NOT_ALLOWED',
  413: 'FST_ERR_CTP_BODY_TOO_LARGE',
  415: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  429: 'FST_ERR_TOO_MANY_REQUESTS',
};

const clientErrorCode = (status: number): string => CODE_BY_STATUS[status] ?? 'FST_ERR_BAD_REQUEST';

const hasNoBody = (body: unknown): boolean => body === undefined || body === null || body === '';

/**
 * An error status that reached us without a body (koa's 404, a router's 405, anything that only set
 * `ctx.status`): the same envelope as a thrown error, never koa's plain-text status line.
 */
const bodilessError = (ctx: Koa.ParameterizedContext<AppState>): ApiError => {
  const status = ctx.status;
  if (status === 404) return new ApiError({ status, code: 'FST_ERR_NOT_FOUND', message: `Route ${ctx.method}:${ctx.path} not found` });
  if (status === 405) {
    const allow = ctx.response.get('Allow');
    return new ApiError({ status, code: clientErrorCode(status), message: `Method ${ctx.method} is not allowed on ${ctx.path}`, allow });
  }
  if (status < 500) return new ApiError({ status, code: clientErrorCode(status), message: STATUS_CODES[status] ?? 'Bad request' });
  return new ApiError({ status, code: 'FST_ERR_INTERNAL', message: `Internal error (request id ${ctx.state.requestId})` });
};

/**
 * Every error leaves in the spec's envelope. Errors we did not anticipate are logged with their stack
 * and answered 500 without internals: the caller gets a request id to quote, never a stack or a cause.
 */
export const errorEnvelope = (): Koa.Middleware<AppState> => async (ctx, next) => {
  try {
    await next();
    if (ctx.status >= 400 && hasNoBody(ctx.body)) throw bodilessError(ctx);
  } catch (error) {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (isHttpError(error) && error.status >= 400 && error.status < 500) {
      apiError = new ApiError({ status: error.status, code: clientErrorCode(error.status), message: error.expose ? error.message : 'Bad request' });
    } else {
      ctx.state.log?.error({ err: error }, 'unhandled error');
      apiError = new ApiError({ status: 500, code: 'FST_ERR_INTERNAL', message: `Internal error (request id ${ctx.state.requestId})` });
    }
    ctx.status = apiError.status;
    ctx.body = toEnvelope(apiError);
    if (apiError.retryAfter !== undefined) ctx.set('Retry-After', String(apiError.retryAfter));
    if (apiError.allow !== undefined) ctx.set('Allow', apiError.allow);
  }
};

/**
 * `router.allowedMethods()` answered in the envelope: a method the path does not support is a 405 with
 * `Allow` (koa-router's plain-text 405), and so is a method no route implements (koa-router's 501, e.g.
 * PROPFIND): a client error, not a server one. With no route on the path at all, it is the usual 404.
 */
export const allowedMethodsInEnvelope = (router: Router<AppState, any>): Koa.Middleware<AppState> => {
  const inner = router.allowedMethods() as unknown as Koa.Middleware<AppState>;
  return async (ctx, next) => {
    await inner(ctx, next);
    if ((ctx.status !== 405 && ctx.status !== 501) || !hasNoBody(ctx.body)) return;
    const allow = ctx.response.get('Allow');
    if (allow === '') {
      ctx.remove('Allow');
      throw new ApiError({ status: 404, code: 'FST_ERR_NOT_FOUND', message: `Route ${ctx.method}:${ctx.path} not found` });
    }
    throw methodNotAllowed(ctx.method, ctx.path, allow);
  };
};
