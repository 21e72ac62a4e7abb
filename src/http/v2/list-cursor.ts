import { ApiError, validationError } from '../api-error';

/** The cursor is opaque to callers: base64url of the sort keys of the last bot of the previous page. */
export const encodeCursor = (keys: readonly [string, string]): string => Buffer.from(JSON.stringify(keys)).toString('base64url');

export const decodeCursor = (cursor: string): [string, string] => {
  try {
    const keys: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(keys) && keys.length === 2 && keys.every((k) => typeof k === 'string')) return keys as [string, string];
  } catch {
    // falls through to the validation error below
  }
  throw validationError('querystring/cursor', 'is not a cursor returned by this API') as ApiError;
};
