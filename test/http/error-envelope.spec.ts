import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { AppState } from '../../src/http/app-context';
import { errorEnvelope } from '../../src/http/middleware/error-envelope';
import { apiClient, createTeam, request } from '../support/http-client';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/test-service';

const assertEnvelope = (response: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(response.body.success, false);
  assert.equal(response.body.statusCode, status);
  assert.equal(response.body.code, code);
  assert.equal(typeof response.body.error, 'string');
  assert.equal(typeof response.body.message, 'string');
  assert.equal(typeof response.body.details, 'string', 'every error envelope but the spec 403 carries details');
};

describe('unsupported methods and bodiless error statuses leave in the error envelope', () => {
  let t: TestService;
  let key: string;
  before(async () => {
    t = await startTestService();
    key = (await createTeam(t.url)).api_key;
  });
  after(() => t.stop());

  const withKey = (method: string, path: string) => request(t.url, method, path, { headers: { 'x-service-api-key': key } });
  const asAdmin = (method: string, path: string) => request(t.url, method, path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  it('answers PUT /v2/bots with a 405 envelope and the Allow header', async () => {
    const response = await withKey('PUT', '/v2/bots');
    assertEnvelope(response, 405, 'FST_ERR_METHOD_NOT_ALLOWED');
    const allow = response.headers.get('allow') ?? '';
    assert.match(allow, /\bGET\b/);
    assert.match(allow, /\bPOST\b/);
  });

  it('answers a method no route implements (PROPFIND /v2/bots) with 405, not a plain-text 501', async () => {
    const response = await withKey('PROPFIND', '/v2/bots');
    assertEnvelope(response, 405, 'FST_ERR_METHOD_NOT_ALLOWED');
    assert.match(response.headers.get('allow') ?? '', /\bPOST\b/);
  });

  it('answers another method on a path that is a route of its own with 405, not as a route reading it as an id (found by Schemathesis)', async () => {
    for (const [method, path, allowed] of [
      ['GET', '/v2/bots/batch', 'POST'],
      ['PATCH', '/v2/bots/scheduled/batch', 'POST'],
      ['DELETE', '/bots/bots_with_metadata', 'GET'],
      ['DELETE', '/bots/meeting_data', 'GET'],
      ['DELETE', '/bots/retranscribe', 'POST'],
      ['GET', '/calendars/raw', 'POST'],
    ] as const) {
      const response = await withKey(method, path);
      assertEnvelope(response, 405, 'FST_ERR_METHOD_NOT_ALLOWED');
      assert.match(response.headers.get('allow') ?? '', new RegExp(`\\b${allowed}\\b`), `${method} ${path}`);
    }
    // The routes with a parameter still read what is not a route as an id.
    assertEnvelope(await withKey('GET', '/v2/bots/not-a-uuid'), 400, 'FST_ERR_VALIDATION');
  });

  it('answers a method no route implements on a path with no route as the usual 404 envelope', async () => {
    const response = await withKey('PROPFIND', '/v2/nowhere');
    assertEnvelope(response, 404, 'FST_ERR_NOT_FOUND');
  });

  it('does the same on the admin API', async () => {
    const put = await asAdmin('PUT', '/admin/teams');
    assertEnvelope(put, 405, 'FST_ERR_METHOD_NOT_ALLOWED');
    assert.match(put.headers.get('allow') ?? '', /\bPOST\b/);
    const propfind = await asAdmin('PROPFIND', '/admin/teams');
    assertEnvelope(propfind, 405, 'FST_ERR_METHOD_NOT_ALLOWED');
    assert.match(propfind.headers.get('allow') ?? '', /\bPOST\b/);
  });

  it('puts details on ordinary errors: 401, 404 bot not found, 404 route', async () => {
    assertEnvelope(await request(t.url, 'GET', '/v2/bots'), 401, 'FST_ERR_UNAUTHORIZED');
    const missing = await apiClient(t.url, key).get('/v2/bots/00000000-0000-4000-8000-000000000000');
    assertEnvelope(missing, 404, missing.body.code);
    assert.equal(missing.body.details.length > 0, true);
    assertEnvelope(await withKey('GET', '/v2/nowhere'), 404, 'FST_ERR_NOT_FOUND');
  });

  it('tells an admin caller without the token about the authorization header, not the API key header', async () => {
    const response = await request(t.url, 'GET', `/admin/teams/00000000-0000-4000-8000-000000000000`);
    assertEnvelope(response, 401, 'FST_ERR_UNAUTHORIZED');
    assert.doesNotMatch(response.body.message, /x-service-api-key/);
    assert.match(response.body.message, /authorization header/);
    assert.match(response.body.message, /Bearer/);
  });
});

describe('errorEnvelope on a status set without a body', () => {
  const serve = async (handler: Koa.Middleware<AppState>) => {
    const app = new Koa<AppState>();
    app.use(errorEnvelope());
    app.use(handler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      return await request(url, 'GET', '/x');
    } finally {
      server.close();
    }
  };

  it('turns a bare 4xx into the envelope', async () => {
    const response = await serve(async (ctx) => {
      ctx.status = 418;
    });
    assertEnvelope(response, 418, 'FST_ERR_BAD_REQUEST');
  });

  it('turns a bare 405 into the envelope and keeps Allow', async () => {
    const response = await serve(async (ctx) => {
      ctx.status = 405;
      ctx.set('Allow', 'GET');
    });
    assertEnvelope(response, 405, 'FST_ERR_METHOD_NOT_ALLOWED');
    assert.equal(response.headers.get('allow'), 'GET');
  });

  it('turns a bare 5xx into the envelope without internals', async () => {
    const response = await serve(async (ctx) => {
      ctx.status = 503;
    });
    assertEnvelope(response, 503, 'FST_ERR_INTERNAL');
  });

  it('leaves an error body a handler wrote alone', async () => {
    const response = await serve(async (ctx) => {
      ctx.status = 409;
      ctx.body = { success: false, code: 'MINE' };
    });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, { success: false, code: 'MINE' });
  });
});
