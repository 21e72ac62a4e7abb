import assert from 'node:assert/strict';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

const PATH = '/v2/storage-config';

/** A body no server stands behind: every test here is refused before anything is contacted. */
const body = (changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  artifacts_bucket: 'recordings',
  audio_chunks_bucket: 'recordings',
  logs_bucket: 'logs',
  endpoint: 'https://s3.eu-west-1.amazonaws.com',
  region: 'eu-west-1',
  force_path_style: false,
  allow_transient_spill: false,
  ingest_access_key_id: 'AKIAINGEST',
  ingest_secret_access_key: 'ingest-secret',
  service_access_key_id: 'AKIASERVICE',
  service_secret_access_key: 'service-secret',
  ...changes,
});

const without = (field: string): Record<string, unknown> => {
  const copy = body();
  delete copy[field];
  return copy;
};

describe('/v2/storage-config input: limits, permissions and production endpoint rules', () => {
  let t: TestService;
  let api: ReturnType<typeof apiClient>;

  before(async () => {
    t = await startTestService();
    api = apiClient(t.url, (await createTeam(t.url)).api_key);
  });
  after(() => t?.stop());

  const assertRefused = async (request: unknown, details: string) => {
    const response = await api.put(PATH, request);
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.equal(response.body.code, 'FST_ERR_VALIDATION');
    assert.equal(response.body.details, details);
    assert.equal((await api.get(PATH)).status, 404, 'nothing was stored');
  };

  it('holds every field to the spec’s limits, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body({ artifacts_bucket: '' }), 'body/artifacts_bucket must NOT have fewer than 1 characters'],
      [body({ audio_chunks_bucket: 'b'.repeat(256) }), 'body/audio_chunks_bucket must NOT have more than 255 characters'],
      [body({ logs_bucket: 7 }), 'body/logs_bucket must be string'],
      [body({ region: 'r'.repeat(65) }), 'body/region must NOT have more than 64 characters'],
      [body({ region: '' }), 'body/region must NOT have fewer than 1 characters'],
      [body({ ingest_access_key_id: 'k'.repeat(257) }), 'body/ingest_access_key_id must NOT have more than 256 characters'],
      [body({ service_access_key_id: '' }), 'body/service_access_key_id must NOT have fewer than 1 characters'],
      [body({ ingest_secret_access_key: 's'.repeat(513) }), 'body/ingest_secret_access_key must NOT have more than 512 characters'],
      [body({ service_secret_access_key: '' }), 'body/service_secret_access_key must NOT have fewer than 1 characters'],
      [body({ force_path_style: 'yes' }), 'body/force_path_style must be boolean'],
      [body({ allow_transient_spill: 1 }), 'body/allow_transient_spill must be boolean'],
      [body({ endpoint: 's3.amazonaws.com' }), 'body/endpoint must be a URI with scheme http or https'],
      [body({ endpoint: 'ftp://s3.amazonaws.com' }), 'body/endpoint must be a URI with scheme http or https'],
      [body({ endpoint: 'https://s3.amazonaws.com/recordings' }), 'body/endpoint must NOT have a path, query or fragment'],
      [body({ endpoint: 'https://KEY:SECRET@s3.amazonaws.com' }), 'body/endpoint must NOT contain user info (the keys have their own fields)'],
      [body({ endpoint: `https://${'a'.repeat(2040)}.com` }), 'body/endpoint must NOT have more than 2048 characters'],
      [body({ bucket: 'recordings' }), 'body/bucket is not an allowed property'],
      [without('service_secret_access_key'), 'body/service_secret_access_key is required'],
      [without('endpoint'), 'body/endpoint is required'],
      [without('artifacts_bucket'), 'body/artifacts_bucket is required'],
    ];
    for (const [request, details] of cases) await assertRefused(request, details);
    const notAnObject = await api.put(PATH, ['recordings']);
    assert.equal(notAnObject.status, 400);
    assert.equal(notAnObject.body.details, 'body must be object');
  });

  it('answers 405 for a method the resource does not have', async () => {
    const response = await api.post(PATH, body());
    assert.equal(response.status, 405);
    assert.equal(response.body.code, 'FST_ERR_METHOD_NOT_ALLOWED');
    assert.deepEqual(response.headers.get('allow')?.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'PUT']);
  });

  it('is Full Access only: a Sending Access key gets exactly the spec’s 403', async () => {
    const team = await createTeam(t.url);
    const issued = await adminClient(t.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'sending' });
    const sending = apiClient(t.url, issued.body.data.api_key);
    for (const call of [() => sending.put(PATH, body()), () => sending.get(PATH), () => sending.delete(PATH)]) {
      const response = await call();
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { success: false, error: 'Forbidden', code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', statusCode: 403 });
    }
  });

  describe('in production (NODE_ENV=production)', () => {
    let production: TestService;
    let prodApi: ReturnType<typeof apiClient>;

    before(async () => {
      production = await startTestService({ allowPrivateStorageEndpoints: false });
      prodApi = apiClient(production.url, (await createTeam(production.url)).api_key);
    });
    after(() => production?.stop());

    it('refuses plain HTTP and endpoints on this machine or a private network', async () => {
      const cases: [string, string][] = [
        ['http://s3.eu-west-1.amazonaws.com', 'body/endpoint must be a URI with scheme https'],
        ['https://localhost:9000', 'body/endpoint must NOT point at this machine or a private network'],
        ['https://minio.localhost', 'body/endpoint must NOT point at this machine or a private network'],
        ['https://127.0.0.1:7480', 'body/endpoint must NOT point at this machine or a private network'],
        ['https://10.0.0.8', 'body/endpoint must NOT point at this machine or a private network'],
        ['https://169.254.169.254', 'body/endpoint must NOT point at this machine or a private network'],
        ['https://[::1]:9000', 'body/endpoint must NOT point at this machine or a private network'],
        ['https://[fd00::1]', 'body/endpoint must NOT point at this machine or a private network'],
      ];
      for (const [endpoint, details] of cases) {
        const response = await prodApi.put(PATH, body({ endpoint }));
        assert.equal(response.status, 400, endpoint);
        assert.equal(response.body.details, details, endpoint);
      }
    });
  });
});
