/** Where an S3-compatible bucket lives, apart from the keys that open it. */
export interface S3Endpoint {
  readonly useSSL: boolean;
  readonly host: string;
  /** undefined: the scheme's default port */
  readonly port: number | undefined;
}

/** An S3-compatible server as a client addresses it. */
export interface S3Server {
  readonly endpoint: S3Endpoint;
  readonly region: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted servers need it) */
  readonly forcePathStyle: boolean;
}

export interface S3Bucket extends S3Server {
  readonly bucket: string;
}

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export const DEFAULT_REGION = 'us-east-1';

/**
 * An endpoint given as a URI with scheme (`https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:7480`):
 * http or https, a host and an optional port, nothing else (the S3 protocol puts buckets and keys in the
 * host or the path itself). A string says what is wrong.
 */
export const parseS3Endpoint = (uri: string): S3Endpoint | string => {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be a URI with scheme http or https';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be a URI with scheme http or https';
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must NOT contain user info (the keys have their own fields)';
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') return 'must NOT have a path, query or fragment';
  return { useSSL: url.protocol === 'https:', host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? undefined : Number(url.port) };
};

export const endpointUri = (endpoint: S3Endpoint): string => {
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `${endpoint.useSSL ? 'https' : 'http'}://${host}${endpoint.port === undefined ? '' : `:${endpoint.port}`}`;
};

const flag = (name: string, value: string | null): boolean => {
  if (value === null || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`OBJECT_STORE_URL: ${name} must be true or false, got "${value}"`);
};

const KNOWN_PARAMETERS = new Set(['region', 'force_path_style']);

/**
 * `OBJECT_STORE_URL`, the service's own bucket:
 *
 *   s3://<access key id>:<secret access key>@<host>[:<port>]/<bucket>?region=<region>&force_path_style=true
 *
 * `s3://` speaks HTTPS, `s3+http://` plain HTTP (a server on this machine or a private network). Key and
 * secret are percent-encoded. `region` defaults to us-east-1; `force_path_style` (default false, as in the
 * storage configuration) addresses the bucket in the path rather than the host name.
 */
export const parseObjectStoreUrl = (value: string): { readonly bucket: S3Bucket; readonly credentials: S3Credentials } => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('OBJECT_STORE_URL must be a URL such as s3://KEY:SECRET@host/bucket?region=us-east-1');
  }
  if (url.protocol !== 's3:' && url.protocol !== 's3+http:') throw new Error(`OBJECT_STORE_URL: scheme must be s3 (HTTPS) or s3+http, got "${url.protocol}"`);
  if (url.hostname === '') throw new Error('OBJECT_STORE_URL must name a host');
  if (url.username === '' || url.password === '') throw new Error('OBJECT_STORE_URL must carry the access key id and secret as user info (s3://KEY:SECRET@host/bucket)');
  const bucket = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (bucket === '' || bucket.includes('/')) throw new Error('OBJECT_STORE_URL must name exactly one bucket as its path (s3://KEY:SECRET@host/bucket)');
  const unknown = [...url.searchParams.keys()].find((k) => !KNOWN_PARAMETERS.has(k));
  if (unknown !== undefined) throw new Error(`OBJECT_STORE_URL: unknown parameter "${unknown}" (known: region, force_path_style)`);
  const region = url.searchParams.get('region') ?? DEFAULT_REGION;
  if (region === '') throw new Error('OBJECT_STORE_URL: region must not be empty');
  return {
    bucket: {
      endpoint: { useSSL: url.protocol === 's3:', host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? undefined : Number(url.port) },
      region,
      forcePathStyle: flag('force_path_style', url.searchParams.get('force_path_style')),
      bucket,
    },
    credentials: { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) },
  };
};

/**
 * `OBJECT_STORE_INGEST_KEY`: `<access key id>:<secret>` (percent-encoded) of a key that may only put
 * objects into the service's bucket. Given, bots upload straight into the bucket with it; otherwise through
 * the service's internal API. The service's own key never reaches a bot either way.
 */
export const parseIngestKey = (value: string): S3Credentials => {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) throw new Error('OBJECT_STORE_INGEST_KEY must be <access key id>:<secret>');
  return { accessKeyId: decodeURIComponent(value.slice(0, colon)), secretAccessKey: decodeURIComponent(value.slice(colon + 1)) };
};
