import assert from 'node:assert/strict';
import { parseIngestKey, parseObjectStoreUrl, parseS3Endpoint } from '../../src/adapters/object-store/s3-location';
import { configFromEnv } from '../../src/config';

describe('OBJECT_STORE_URL and storage endpoints', () => {
  it('reads keys, host, port, bucket, region and path style from OBJECT_STORE_URL', () => {
    assert.deepEqual(parseObjectStoreUrl('s3+http://AKIA123:se%2Fcr%40et@127.0.0.1:7480/artifacts?region=eu-west-1&force_path_style=true'), {
      bucket: { endpoint: { useSSL: false, host: '127.0.0.1', port: 7480 }, region: 'eu-west-1', forcePathStyle: true, bucket: 'artifacts' },
      credentials: { accessKeyId: 'AKIA123', secretAccessKey: 'se/cr@et' },
    });
  });

  it('speaks HTTPS for s3://, with us-east-1 and virtual-hosted addressing by default', () => {
    assert.deepEqual(parseObjectStoreUrl('s3://K:S@s3.amazonaws.com/my-bucket').bucket, {
      endpoint: { useSSL: true, host: 's3.amazonaws.com', port: undefined },
      region: 'us-east-1',
      forcePathStyle: false,
      bucket: 'my-bucket',
    });
  });

  it('refuses a URL it cannot use, saying why, before the service starts', () => {
    const refusals: [string, RegExp][] = [
      ['https://K:S@host/bucket', /scheme must be s3/],
      ['s3://host/bucket', /access key id and secret/],
      ['s3://K:S@host', /exactly one bucket/],
      ['s3://K:S@host/bucket/deeper', /exactly one bucket/],
      ['s3://K:S@host/bucket?force_path_style=yes', /force_path_style must be true or false/],
      ['s3://K:S@host/bucket?pathstyle=true', /unknown parameter "pathstyle"/],
      ['not a url', /must be a URL/],
    ];
    for (const [url, reason] of refusals) {
      assert.throws(() => parseObjectStoreUrl(url), reason, url);
      assert.throws(() => configFromEnv({ OBJECT_STORE_URL: url }), reason, url);
    }
    assert.equal(configFromEnv({}).objectStoreUrl, undefined, 'unset: the local folder');
  });

  it('takes OBJECT_STORE_INGEST_KEY as <id>:<secret>, only beside OBJECT_STORE_URL', () => {
    const url = 's3://K:S@host/bucket';
    assert.equal(configFromEnv({ OBJECT_STORE_URL: url, OBJECT_STORE_INGEST_KEY: 'ID:se%3Acret' }).objectStoreIngestKey, 'ID:se%3Acret');
    assert.deepEqual(parseIngestKey('ID:se%3Acret'), { accessKeyId: 'ID', secretAccessKey: 'se:cret' });
    assert.throws(() => configFromEnv({ OBJECT_STORE_INGEST_KEY: 'ID:secret' }), /needs OBJECT_STORE_URL/);
    for (const bad of ['ID', 'ID:', ':secret']) assert.throws(() => configFromEnv({ OBJECT_STORE_URL: url, OBJECT_STORE_INGEST_KEY: bad }), /must be <access key id>:<secret>/, bad);
  });

  it('allows private storage endpoints only when ALLOW_PRIVATE_STORAGE_ENDPOINTS says so, whatever NODE_ENV is', () => {
    assert.equal(configFromEnv({}).allowPrivateStorageEndpoints, false);
    assert.equal(configFromEnv({ NODE_ENV: 'development' }).allowPrivateStorageEndpoints, false);
    assert.equal(configFromEnv({ ALLOW_PRIVATE_STORAGE_ENDPOINTS: '1' }).allowPrivateStorageEndpoints, true);
  });

  it('takes a customer endpoint as a URI with scheme and nothing after the host and port', () => {
    assert.deepEqual(parseS3Endpoint('https://s3.eu-west-1.amazonaws.com'), { useSSL: true, host: 's3.eu-west-1.amazonaws.com', port: undefined });
    assert.deepEqual(parseS3Endpoint('http://[::1]:9000/'), { useSSL: false, host: '::1', port: 9000 });
    for (const bad of ['s3.amazonaws.com', 'ftp://host', 'https://user:pw@host', 'https://host/bucket', 'https://host?x=1', 'https://host/#f']) {
      assert.equal(typeof parseS3Endpoint(bad), 'string', bad);
    }
  });
});
