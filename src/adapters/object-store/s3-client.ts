import http from 'node:http';
import https from 'node:https';
import * as Minio from 'minio';
import { publicOnlyLookup, refusedLiteralAddress } from '../../../contract/net/public-only-lookup';
import type { S3Credentials, S3Server } from './s3-location';

/** A connection that stays silent this long is given up: an unreachable endpoint must not hold a request forever. */
export const S3_IDLE_TIMEOUT_MS = 15_000;

export interface S3ClientOptions {
  /** Only public addresses may be reached (customer endpoints in production), checked on every connection. */
  readonly publicAddressesOnly: boolean;
  /**
   * Each request (one part of an upload, at most) is given up after this long, however it trickles: a
   * server that keeps a request alive a byte at a time must not hold its caller (a bot's slot) forever.
   */
  readonly requestDeadlineMs?: number;
}

/** minio's transport, with an idle timeout (and, when asked, a deadline) on every request and, when asked, the public-address check. */
const transportFor = (useSSL: boolean, options: S3ClientOptions) => {
  const base = useSSL ? https : http;
  return {
    request: (requestOptions: http.RequestOptions, callback?: (response: http.IncomingMessage) => void): http.ClientRequest => {
      const host = requestOptions.hostname ?? requestOptions.host ?? '';
      const req = base.request({ ...requestOptions, ...(options.publicAddressesOnly ? { lookup: publicOnlyLookup } : {}) }, callback);
      const refused = options.publicAddressesOnly ? refusedLiteralAddress(host) : null;
      if (refused) process.nextTick(() => req.destroy(refused));
      req.setTimeout(S3_IDLE_TIMEOUT_MS, () => req.destroy(Object.assign(new Error(`no answer from ${host} in ${S3_IDLE_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })));
      const deadline = options.requestDeadlineMs;
      if (deadline !== undefined) {
        const timer = setTimeout(() => req.destroy(Object.assign(new Error(`not done within ${deadline / 1000} s`), { code: 'ETIMEDOUT' })), deadline);
        req.once('close', () => clearTimeout(timer));
      }
      return req;
    },
  };
};

export const s3Client = (server: S3Server, credentials: S3Credentials, options: S3ClientOptions): Minio.Client =>
  new Minio.Client({
    endPoint: server.endpoint.host,
    ...(server.endpoint.port === undefined ? {} : { port: server.endpoint.port }),
    useSSL: server.endpoint.useSSL,
    accessKey: credentials.accessKeyId,
    secretKey: credentials.secretAccessKey,
    // Always given, so minio never asks the server for the bucket's location (a put-only key may not).
    region: server.region,
    pathStyle: server.forcePathStyle,
    transport: transportFor(server.endpoint.useSSL, options) as unknown as Pick<typeof http, 'request'>,
  });
