import { STATUS_CODES } from 'node:http';
import * as E from 'fp-ts/Either';

export interface ApiErrorInit {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /**
   * The specific detail; when absent the message is repeated, so every envelope carries `details` (the spec:
   * "plus `details: string` on most errors"). `null` only where the spec fixes the exact body without it.
   */
  readonly details?: string | null;
  readonly retryAfter?: number;
  /** methods the resource supports, sent as the `Allow` header of a 405 (not part of the body) */
  readonly allow?: string;
}

/**
 * An error the caller is meant to see, already in the spec's v2 vocabulary. `error` is derived from the
 * status so that no call site can pair a 404 with "Bad Request".
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly error: string;
  readonly details?: string;
  readonly retryAfter?: number;
  readonly allow?: string;
  /** koa's own error handler honours `expose`: even without our envelope the message is safe to show. */
  readonly expose = true;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.error = STATUS_CODES[init.status] ?? 'Error';
    if (init.details !== null) this.details = init.details ?? init.message;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.allow !== undefined) this.allow = init.allow;
  }
}

export interface ErrorEnvelope {
  readonly success: false;
  readonly error: string;
  readonly code: string;
  readonly message: string;
  readonly statusCode: number;
  readonly details?: string;
  readonly retryAfter?: number;
}

/** The spec's error envelope; optional keys are left out rather than sent as null. */
export const toEnvelope = (err: ApiError): ErrorEnvelope => ({
  success: false,
  error: err.error,
  code: err.code,
  message: err.message,
  statusCode: err.status,
  ...(err.details !== undefined ? { details: err.details } : {}),
  ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
});

/**
 * `field` is a location like `body/bot_name` or `params/bot_id` (the Fastify/ajv convention the
 * FST_ERR_* codes come from); message and details carry the same sentence so that clients reading
 * either one learn which field to fix.
 */
export const validationError = (field: string, message: string): ApiError => {
  const sentence = `${field} ${message}`;
  return new ApiError({ status: 400, code: 'FST_ERR_VALIDATION', message: sentence, details: sentence });
};

/**
 * The same refusal with a field named as the caller wrote it (a field checked under another name: a legacy
 * field checked by v2's rules): every path starting with `from` in message and details starts with `to`.
 */
export const renamedInError = (err: ApiError, from: string, to: string): ApiError => {
  const renamed = (text: string) => (text.startsWith(from) ? `${to}${text.slice(from.length)}` : text);
  return new ApiError({ status: err.status, code: err.code, message: renamed(err.message), details: err.details === undefined ? null : renamed(err.details), ...(err.retryAfter === undefined ? {} : { retryAfter: err.retryAfter }) });
};

export const notFound = (code: string, message: string, details?: string): ApiError =>
  new ApiError({ status: 404, code, message, details });

export const conflict = (code: string, message: string, details?: string): ApiError =>
  new ApiError({ status: 409, code, message, details });

/** Exactly the body the spec shows for a key lacking permission: no details. */
export const forbidden = (): ApiError => new ApiError({ status: 403, code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', details: null });

export const unauthorized = (message = 'Missing or invalid x-service-api-key header'): ApiError =>
  new ApiError({ status: 401, code: 'FST_ERR_UNAUTHORIZED', message });

/**
 * A method the route does not support (including methods no route implements, which koa-router would answer
 * 501): 405 with the `Allow` header. The code follows DESIGN.md's `FST_ERR_*` naming.
 */
export const methodNotAllowed = (method: string, path: string, allow: string): ApiError =>
  new ApiError({
    status: 405,
    code: 'FST_ERR_METHOD_NOT_ALLOWED',
    message: `Method ${method} is not allowed on ${path}`,
    details: `allowed methods: ${allow}`,
    allow,
  });

/** `retryAfter` is whole seconds, at least 1: a client told "retry after 0" would spin. */
export const tooManyRequests = (code: string, retryAfter: number, message: string): ApiError =>
  new ApiError({ status: 429, code, message, retryAfter: Math.max(1, Math.ceil(retryAfter)) });

export const payloadTooLarge = (maxBytes: number): ApiError =>
  new ApiError({
    status: 413,
    code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    message: 'Request body is too large',
    details: `body must NOT be larger than ${maxBytes} bytes`,
  });

export const unsupportedMediaType = (contentType: string, details = 'body must be sent as application/json with charset utf-8'): ApiError =>
  new ApiError({ status: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: `Unsupported Media Type: ${contentType}`, details });

export const insufficientTokens = (message = 'Not enough tokens to create a bot'): ApiError =>
  new ApiError({ status: 402, code: 'FST_ERR_INSUFFICIENT_TOKENS', message, details: message });

/** Routes decode with Either and throw at the edge, where the envelope middleware catches. */
export const orThrow = <A>(result: E.Either<ApiError, A>): A => {
  if (E.isLeft(result)) throw result.left;
  return result.right;
};
