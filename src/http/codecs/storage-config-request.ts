import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../../contract/net/public-addresses';
import { parseS3Endpoint, type S3Endpoint } from '../../adapters/object-store/s3-location';
import type { ApiError } from '../api-error';
import { bool, decodeWith, leaf, lengthOf, str, strictObject, withDefault } from './codec-kit';

const MAX_ENDPOINT_LENGTH = 2048;

/**
 * The spec's "URI with scheme" of an S3-compatible endpoint: only HTTPS, and not a name or literal
 * address of this machine or a private network; with ALLOW_PRIVATE_STORAGE_ENDPOINTS (tests and
 * development) any host will do. Names are checked again on every connection, against the
 * address they resolve to then.
 */
const endpoint = (publicEndpointsOnly: boolean) =>
  leaf<{ readonly uri: string; readonly parsed: S3Endpoint }>('endpoint', (u) => {
    if (typeof u !== 'string') return E.left('must be string');
    if (lengthOf(u) > MAX_ENDPOINT_LENGTH) return E.left(`must NOT have more than ${MAX_ENDPOINT_LENGTH} characters`);
    const parsed = parseS3Endpoint(u);
    if (typeof parsed === 'string') return E.left(parsed);
    if (!publicEndpointsOnly) return E.right({ uri: u, parsed });
    if (!parsed.useSSL) return E.left('must be a URI with scheme https');
    const host = parsed.host.toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host))) {
      return E.left('must NOT point at this machine or a private network');
    }
    return E.right({ uri: u, parsed });
  }, {
    type: 'string',
    format: 'uri',
    maxLength: MAX_ENDPOINT_LENGTH,
    description: "The S3-compatible server, as a URI with its scheme: https, and not this machine's or a private network's address.",
    examples: ['https://s3.eu-west-1.amazonaws.com'],
  });

const bucket = str(1, 255);
const keyId = str(1, 256);
const secret = str(1, 512);

/**
 * Every field the spec lists; the buckets, endpoint, region and all four keys are required (a PUT replaces
 * the whole configuration and is verified with the keys it carries), the two flags default to false.
 */
const bodyCodec = (publicEndpointsOnly: boolean) =>
  strictObject('StorageConfigRequest', {
    artifacts_bucket: bucket,
    audio_chunks_bucket: bucket,
    logs_bucket: bucket,
    endpoint: endpoint(publicEndpointsOnly),
    region: str(1, 64),
    force_path_style: withDefault(bool, () => false),
    allow_transient_spill: withDefault(bool, () => false),
    ingest_access_key_id: keyId,
    ingest_secret_access_key: secret,
    service_access_key_id: keyId,
    service_secret_access_key: secret,
  });

/** The request as the OpenAPI document describes it: public https endpoints only. */
export const StorageConfigRequestCodec = bodyCodec(true);

/** The validated request; `endpoint` is kept as given (`uri`) and as the client will use it (`parsed`). */
export type StorageConfigRequest = Readonly<t.TypeOf<ReturnType<typeof bodyCodec>>>;

export const decodeStorageConfigRequest = (body: unknown, options: { readonly publicEndpointsOnly: boolean }): E.Either<ApiError, StorageConfigRequest> =>
  decodeWith(bodyCodec(options.publicEndpointsOnly), 'body', body);
