import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TranscriptionFailed } from '../../../src/adapters/transcription/port';
import { ProviderHttp, stringField } from '../../../src/adapters/transcription/provider-http';

const KEY = 'secret-key-123456';

describe('JSON calls to a hosted provider', () => {
  let server: Server;
  let base: string;
  let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };

  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const http = () => new ProviderHttp('Deepgram', base, (body) => stringField(body, 'err_msg'), { attempts: 1, backoffMs: 1, requestTimeoutMs: 5000 });
  const failure = async (attempt: Promise<unknown>) => {
    const error = await attempt.then(() => assert.fail('expected a failure'), (e: unknown) => e);
    assert.ok(error instanceof TranscriptionFailed);
    return error;
  };

  it('a provider message that quotes the key is shown without it', async () => {
    answer = { status: 400, type: 'application/json', body: JSON.stringify({ err_msg: `the key ${KEY} is malformed` }) };
    const error = await failure(http().json({ method: 'GET', path: '/v1/x', headers: {}, secret: KEY }));
    assert.equal(error.message, 'Deepgram: GET /v1/x answered 400: the key [key] is malformed');
  });

  it('a 2xx answer that is not JSON is the provider failing', async () => {
    answer = { status: 200, type: 'text/html', body: '<html>maintenance</html>' };
    const error = await failure(http().json({ method: 'GET', path: '/v1/x', headers: {}, secret: KEY }));
    assert.match(error.message, /answered 200 with a body that is not JSON/);
  });

  it('an error answer that is not JSON is shown as text', async () => {
    answer = { status: 404, type: 'text/plain', body: 'no such route' };
    const error = await failure(http().json({ method: 'GET', path: '/v1/x?key=1', headers: {}, secret: KEY }));
    assert.equal(error.message, 'Deepgram: GET /v1/x answered 404: no such route');
    assert.equal(error.status, 404);
  });
});
