import * as Minio from 'minio';
import { ObjectStoreError, type ObjectStoreFailure } from './port';

const ACCESS_DENIED = new Set(['AccessDenied', 'SignatureDoesNotMatch', 'InvalidAccessKeyId', 'AllAccessDisabled', 'UserSuspended', 'InvalidToken', 'ExpiredToken']);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO']);

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;

/** An object that is not there (as opposed to a bucket that is not there, or a key that may not look). */
export const isNoSuchKey = (error: unknown): boolean => codeOf(error) === 'NoSuchKey' || codeOf(error) === 'NotFound';

export const failureOf = (error: unknown): ObjectStoreFailure => {
  const code = codeOf(error);
  if (code === 'EADDRNOTPUBLIC') return 'refused_address';
  if (code !== undefined && ACCESS_DENIED.has(code)) return 'access_denied';
  if (code === 'NoSuchBucket') return 'no_such_bucket';
  if (code !== undefined && UNREACHABLE.has(code)) return 'unreachable';
  if (
    error instanceof Minio.InvalidBucketNameError ||
    error instanceof Minio.InvalidObjectNameError ||
    error instanceof Minio.InvalidEndpointError ||
    error instanceof Minio.InvalidArgumentError
  )
    return 'invalid';
  return 'other';
};

/** One line a customer can act on: what the server or the network said, without any credential. */
export const describeS3Error = (error: unknown): string => {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === undefined) return message;
  if (message === '' || message === code) return code;
  return message.startsWith(code) ? message : `${code}: ${message}`;
};

export const toObjectStoreError = (error: unknown, doing: string): ObjectStoreError =>
  error instanceof ObjectStoreError ? error : new ObjectStoreError(failureOf(error), `${doing}: ${describeS3Error(error)}`);
