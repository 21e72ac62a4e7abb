import assert from 'node:assert/strict';
import { verifyStorageAccess } from '../../src/adapters/object-store/verify-storage-access';
import { storageStreamName } from '../../src/domain/storage/storage-events';
import { customerStorage, type CustomerStorage, INGEST_ACTIONS } from '../support/customer-storage';
import { apiClient, createTeam } from '../support/http-client';
import { bucketName, bucketPolicy, type Radosgw, sharedRadosgw } from '../support/radosgw';
import { freePort } from '../support/free-port';
import { startTestService, type TestService } from '../support/test-service';

const PATH = '/v2/storage-config';

const markersLeft = async (customer: CustomerStorage, bucket: string) =>
  (await customer.serviceClient.listObjectsV2(bucket, 'storage-verification/', true).toArray()).map((o) => o.name);

describe('PUT/GET/DELETE /v2/storage-config against a real S3 server (Ceph radosgw)', function () {
  this.timeout(60_000);
  let gw: Radosgw;
  let t: TestService;

  before(async () => {
    gw = await sharedRadosgw();
    t = await startTestService();
  });
  after(() => t?.stop());

  const newTeam = async () => apiClient(t.url, (await createTeam(t.url)).api_key);

  const assertVerificationFailed = (response: { status: number; body: any }, reason: RegExp) => {
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.equal(response.body.success, false);
    assert.equal(response.body.code, 'FST_ERR_STORAGE_VERIFICATION_FAILED');
    assert.match(response.body.details, reason);
    assert.match(response.body.message, /^Storage configuration verification failed: /);
  };

  describe('a configuration that passes verification', () => {
    it('is stored and shown with every field but the secrets', async () => {
      const api = await newTeam();
      const customer = await customerStorage(gw);
      const put = await api.put(PATH, customer.body({ allow_transient_spill: true }));
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.success, true);
      const data = put.body.data;
      assert.deepEqual(Object.keys(data).sort(), [
        'allow_transient_spill', 'artifacts_bucket', 'audio_chunks_bucket', 'created_at', 'enabled', 'endpoint', 'force_path_style',
        'ingest_access_key_id', 'last_error_at', 'last_error_message', 'last_verified_at', 'logs_bucket', 'region', 'service_access_key_id',
        'storage_config_id', 'updated_at',
      ]);
      assert.deepEqual(
        { ...data, created_at: undefined, updated_at: undefined, last_verified_at: undefined, storage_config_id: undefined },
        {
          artifacts_bucket: customer.artifactsBucket,
          audio_chunks_bucket: customer.artifactsBucket,
          logs_bucket: customer.logsBucket,
          endpoint: gw.endpoint,
          region: gw.region,
          force_path_style: true,
          allow_transient_spill: true,
          ingest_access_key_id: customer.ingest.accessKey,
          service_access_key_id: customer.service.accessKey,
          enabled: true,
          last_error_at: null,
          last_error_message: null,
          created_at: undefined,
          updated_at: undefined,
          last_verified_at: undefined,
          storage_config_id: undefined,
        },
      );
      assert.match(data.storage_config_id, /^[0-9a-f-]{36}$/);
      assert.equal(data.created_at, data.updated_at);
      assert.ok(Math.abs(Date.parse(data.last_verified_at) - Date.now()) < 10_000);
      assert.deepEqual((await api.get(PATH)).body, put.body, 'GET shows what PUT stored');
    });

    it('cleans up its markers, and the defaults of the two flags are false', async () => {
      const api = await newTeam();
      const customer = await customerStorage(gw);
      const body = customer.body();
      delete body.force_path_style;
      const put = await api.put(PATH, { ...body, force_path_style: null, allow_transient_spill: null });
      // Virtual-hosted addressing on a server at 127.0.0.1 cannot work: false really is the default.
      assertVerificationFailed(put, /could not be reached|ENOTFOUND|EAI_AGAIN/);
      const accepted = await api.put(PATH, customer.body());
      assert.equal(accepted.status, 200);
      assert.equal(accepted.body.data.allow_transient_spill, false);
      assert.deepEqual(await markersLeft(customer, customer.artifactsBucket), []);
      assert.deepEqual(await markersLeft(customer, customer.logsBucket), []);
    });

    it('keeps the secrets sealed at rest and out of the logs', async () => {
      const team = await createTeam(t.url);
      const customer = await customerStorage(gw);
      const put = await apiClient(t.url, team.api_key).put(PATH, customer.body());
      assert.equal(put.status, 200);
      const stored = await t.service.eventStore.readStream(storageStreamName(team.team_id));
      assert.deepEqual(stored.map((e) => e.type), ['StorageConfigured']);
      const text = JSON.stringify(stored.map((e) => e.data));
      assert.ok(text.includes(customer.ingest.accessKey), 'access key ids are kept in clear');
      assert.ok(!text.includes(customer.ingest.secretKey), 'the ingest secret is never stored in clear');
      assert.ok(!text.includes(customer.service.secretKey), 'the service secret is never stored in clear');
      assert.match(text, /"ingest_secret_access_key":\{"sealed":"v2\./);
      assert.match(text, /"service_secret_access_key":\{"sealed":"v2\./);
      assert.ok(!t.logText().includes(customer.service.secretKey));
      assert.ok(!t.logText().includes(customer.ingest.secretKey));
    });
  });

  describe('verification failures answer 400 with the reason and leave the stored configuration as it was', () => {
    let api: ReturnType<typeof apiClient>;
    let customer: CustomerStorage;
    let stored: unknown;

    before(async () => {
      api = await newTeam();
      customer = await customerStorage(gw);
      const put = await api.put(PATH, customer.body());
      assert.equal(put.status, 200);
      stored = put.body;
    });
    afterEach(async () => {
      assert.deepEqual((await api.get(PATH)).body, stored, 'the stored configuration is unchanged');
    });

    it('a wrong ingest secret', async () => {
      assertVerificationFailed(await api.put(PATH, customer.body({ ingest_secret_access_key: 'not-the-secret' })), /the ingest key may not write a marker object in bucket ".*" \((SignatureDoesNotMatch|AccessDenied)\)/);
    });

    it('a wrong service secret', async () => {
      assertVerificationFailed(await api.put(PATH, customer.body({ service_secret_access_key: 'not-the-secret' })), /the service key may not read the marker object/);
    });

    it('a service key that cannot read', async () => {
      const writeOnly = await customerStorage(gw, { serviceActions: ['s3:PutObject', 's3:DeleteObject', 's3:ListBucket'] });
      assertVerificationFailed(await api.put(PATH, writeOnly.body()), new RegExp(`the service key may not read the marker object in bucket "${writeOnly.artifactsBucket}" \\(AccessDenied`));
    });

    it('a service key that cannot delete', async () => {
      const noDelete = await customerStorage(gw, { serviceActions: ['s3:GetObject', 's3:PutObject', 's3:ListBucket'] });
      assertVerificationFailed(await api.put(PATH, noDelete.body()), /the service key may not delete the marker object/);
    });

    it('an ingest key that cannot write', async () => {
      const readOnly = await customerStorage(gw, { ingestActions: ['s3:GetObject'] });
      assertVerificationFailed(await api.put(PATH, readOnly.body()), /the ingest key may not write a marker object/);
    });

    it('a key pair pointing at different buckets of the same name', async () => {
      // A radosgw tenant has its own bucket namespace: the ingest key's bucket is not the service key's.
      const tenant = `t${bucketName('x').replace(/-/g, '')}`.slice(0, 20);
      const elsewhere = await gw.createUser('elsewhere', { tenant });
      const client = gw.client(elsewhere);
      await client.makeBucket(customer.artifactsBucket);
      await client.setBucketPolicy(customer.artifactsBucket, bucketPolicy(customer.artifactsBucket, [{ keys: elsewhere, allow: INGEST_ACTIONS }]));
      const response = await api.put(PATH, customer.body({ ingest_access_key_id: elsewhere.accessKey, ingest_secret_access_key: elsewhere.secretKey, logs_bucket: customer.artifactsBucket }));
      assertVerificationFailed(response, new RegExp(`the service key does not find the marker the ingest key wrote in bucket "${customer.artifactsBucket}": the two key pairs point at different buckets`));
    });

    it('an unreachable endpoint', async () => {
      const port = await freePort(); // nothing listens there
      assertVerificationFailed(await api.put(PATH, customer.body({ endpoint: `http://127.0.0.1:${port}` })), new RegExp(`the endpoint http://127.0.0.1:${port} could not be reached \\(.*ECONNREFUSED`));
    });

    it('a bucket that does not exist', async () => {
      const missing = bucketName('missing');
      assertVerificationFailed(await api.put(PATH, customer.body({ logs_bucket: missing })), new RegExp(`bucket "${missing}" does not exist at ${gw.endpoint}`));
    });

    it('a bucket name S3 does not accept', async () => {
      assertVerificationFailed(await api.put(PATH, customer.body({ logs_bucket: 'No_Such/Bucket' })), /bucket "No_Such\/Bucket" cannot be used: Invalid bucket name/);
    });
  });

  describe('replacing and deleting', () => {
    it('a replacement keeps the id and creation time and changes the rest', async () => {
      const api = await newTeam();
      const first = await customerStorage(gw);
      const second = await customerStorage(gw);
      const before = (await api.put(PATH, first.body())).body.data;
      const after = await api.put(PATH, second.body({ allow_transient_spill: true }));
      assert.equal(after.status, 200);
      assert.equal(after.body.data.storage_config_id, before.storage_config_id);
      assert.equal(after.body.data.created_at, before.created_at);
      assert.ok(after.body.data.updated_at >= before.updated_at);
      assert.equal(after.body.data.artifacts_bucket, second.artifactsBucket);
      assert.equal(after.body.data.ingest_access_key_id, second.ingest.accessKey);
      assert.equal(after.body.data.allow_transient_spill, true);
      assert.deepEqual((await api.get(PATH)).body.data, after.body.data);
    });

    it('DELETE returns to the service’s storage: 404 afterwards and the second time; a new PUT is a new configuration', async () => {
      const api = await newTeam();
      const customer = await customerStorage(gw);
      const none = await api.get(PATH);
      assert.equal(none.status, 404);
      assert.equal(none.body.code, 'FST_ERR_STORAGE_CONFIG_NOT_FOUND');
      assert.equal((await api.delete(PATH)).status, 404, 'nothing to delete');

      const configured = (await api.put(PATH, customer.body())).body.data;
      const deleted = await api.delete(PATH);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, {
        success: true,
        data: {
          enabled: false,
          message: 'Storage configuration removed: new bots store their artifacts with the service; earlier artifacts stay where they are',
          storage_config_id: configured.storage_config_id,
        },
      });
      assert.equal((await api.get(PATH)).status, 404);
      const again = await api.delete(PATH);
      assert.equal(again.status, 404);
      assert.equal(again.body.code, 'FST_ERR_STORAGE_CONFIG_NOT_FOUND');

      const renewed = await api.put(PATH, customer.body());
      assert.equal(renewed.status, 200);
      assert.notEqual(renewed.body.data.storage_config_id, configured.storage_config_id);
    });

    it('each team sees only its own configuration', async () => {
      const api = await newTeam();
      const other = await newTeam();
      assert.equal((await api.put(PATH, (await customerStorage(gw)).body())).status, 200);
      assert.equal((await other.get(PATH)).status, 404);
      assert.equal((await other.delete(PATH)).status, 404);
      assert.equal((await api.get(PATH)).status, 200);
    });

    it('the configuration survives a restart (it is in the event log)', async () => {
      const team = await createTeam(t.url);
      const stored = (await apiClient(t.url, team.api_key).put(PATH, (await customerStorage(gw)).body())).body;
      t = await t.restart();
      assert.deepEqual((await apiClient(t.url, team.api_key).get(PATH)).body, stored);
    });
  });

  describe('in production every connection is checked against the address it really goes to', () => {
    const access = (customer: CustomerStorage, host: string) => ({
      endpoint: { useSSL: false, host, port: gw.port },
      region: gw.region,
      forcePathStyle: true,
      buckets: [customer.artifactsBucket],
      ingest: { accessKeyId: customer.ingest.accessKey, secretAccessKey: customer.ingest.secretKey },
      service: { accessKeyId: customer.service.accessKey, secretAccessKey: customer.service.secretKey },
    });

    it('a name that resolves to loopback, and a literal loopback address, are refused; allowed outside production', async () => {
      const customer = await customerStorage(gw);
      for (const host of ['localhost', '127.0.0.1']) {
        const refused = await verifyStorageAccess(access(customer, host), { publicAddressesOnly: true });
        assert.equal(refused.ok, false, host);
        assert.match((refused as { reason: string }).reason, new RegExp(`the endpoint http://${host}:${gw.port} is not on a public address \\(.*not a public address`), host);
        assert.deepEqual(await verifyStorageAccess(access(customer, host), { publicAddressesOnly: false }), { ok: true }, host);
      }
    });
  });
});
