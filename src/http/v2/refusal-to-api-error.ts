import { ApiError, conflict, insufficientTokens, notFound, tooManyRequests, validationError } from '../api-error';

type Refusal = { readonly code: string; readonly message: string; readonly retry_after_seconds?: number };

/** One place maps every domain refusal to the spec's status and the FST_ERR_* code of DESIGN.md. */
export const refusalToApiError = (refusal: Refusal): ApiError => {
  switch (refusal.code) {
    case 'BOT_NOT_FOUND':
      return notFound('FST_ERR_BOT_NOT_FOUND', 'Bot not found');
    case 'BOT_STATUS':
    case 'INVALID_TRANSITION':
      return conflict('FST_ERR_BOT_STATUS', refusal.message);
    case 'SCHEDULE_CHANGED':
      return conflict('FST_ERR_BOT_STATUS', refusal.message);
    case 'INVALID_JOIN_AT':
      return validationError('body/join_at', refusal.message.replace(/^join_at /, ''));
    case 'BOT_ALREADY_EXISTS':
      return conflict('FST_ERR_BOT_ALREADY_EXISTS', refusal.message);
    case 'DAILY_BOT_CAP_REACHED':
      return tooManyRequests('FST_ERR_DAILY_BOT_CAP_REACHED', refusal.retry_after_seconds ?? 1, refusal.message);
    case 'INSUFFICIENT_TOKENS':
      return insufficientTokens(refusal.message);
    case 'CHAT_DISABLED':
      return new ApiError({ status: 422, code: 'FST_ERR_CHAT_DISABLED', message: refusal.message });
    case 'STORAGE_CONFIG_NOT_FOUND':
      return notFound('FST_ERR_STORAGE_CONFIG_NOT_FOUND', 'Storage configuration not found', refusal.message);
    case 'SEND_FAILED':
      return new ApiError({ status: 500, code: 'FST_ERR_SEND_CHAT_MESSAGE_FAILED', message: refusal.message });
    default:
      return new ApiError({ status: 500, code: 'FST_ERR_INTERNAL', message: `Unexpected refusal ${refusal.code}` });
  }
};
