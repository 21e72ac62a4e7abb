import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ApiError, toEnvelope } from '../../../src/http/api-error';
import { nestingExceeds, readJsonBody, type ReadJsonBodyOptions } from '../../../src/http/read-json-body';

/** A real koa app on an ephemeral port: the reader is exercised through real sockets and HTTP parsing. */
const optionsByPath: Record<string, ReadJsonBodyOptions> = {
  '/': {},
  '/required': { required: true },
  '/small': { maxBytes: 16 },
};

const buildApp = () => {
  const app = new Koa();
  app.use(async (ctx) => {
    try {
      const body = await readJsonBody(ctx, optionsByPath[ctx.path] ?? {});
      // Echo a summary, not the body: the 100k-character case only needs its length back.
      ctx.body = { success: true, data: { type: body === undefined ? 'none' : Array.isArray(body) ? 'array' : typeof body, body: summarise(body) } };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.status = error.status;
      ctx.body = toEnvelope(error);
    }
  });
  return app;
};

const summarise = (body: unknown): unknown => {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && v.length > 100 ? `<${v.length} chars>` : v]));
  }
  return body;
};

interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown> & { data?: { type: string; body: unknown } };
}

let server: Server;
let port: number;

const parseReply = (res: import('node:http').IncomingMessage): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    res.on('error', reject);
  });

/** One request with exact bytes and headers; content-length is set unless `chunked` asks for streaming. */
const send = (payload: Buffer | string | undefined, headers: IncomingHttpHeaders = { 'content-type': 'application/json' }, path = '/', chunked = false): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const bytes = payload === undefined ? Buffer.alloc(0) : Buffer.from(payload);
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': bytes.length }) } });
    req.on('response', (res) => parseReply(res).then(resolve, reject));
    req.on('error', reject);
    req.end(bytes);
  });

const json = (value: unknown) => JSON.stringify(value);

const expectRefusal = (reply: Reply, status: number, code: string, details: string | RegExp) => {
  assert.equal(reply.status, status);
  assert.equal(reply.body.success, false);
  assert.equal(reply.body.statusCode, status);
  assert.equal(reply.body.code, code);
  if (typeof details === 'string') assert.equal(reply.body.details, details);
  else assert.match(String(reply.body.details), details);
};

describe('readJsonBody through a real koa app', () => {
  before(async () => {
    server = buildApp().listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  describe('content type', () => {
    const accepted = ['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"', 'application/json;charset=utf8', 'application/json; version=2'];
    for (const contentType of accepted) {
      it(`accepts ${contentType}`, async () => {
        const reply = await send(json({ a: 1 }), { 'content-type': contentType });
        assert.equal(reply.status, 200);
        assert.deepEqual(reply.body.data, { type: 'object', body: { a: 1 } });
      });
    }
    it('reads a body without a content type as JSON', async () => {
      const reply = await send(json({ a: 1 }), {});
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.data?.body, { a: 1 });
    });
    const refused = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json; charset=iso-8859-1', 'application/json; charset=utf-16'];
    for (const contentType of refused) {
      it(`refuses ${contentType} with 415`, async () => {
        const reply = await send(json({ a: 1 }), { 'content-type': contentType });
        expectRefusal(reply, 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', /application\/json/);
        assert.equal(reply.body.error, 'Unsupported Media Type');
      });
    }
    it('refuses a compressed body with 415 (no inflating past the size limit)', async () => {
      const reply = await send(json({ a: 1 }), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      expectRefusal(reply, 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', 'body must NOT be sent with a Content-Encoding');
    });
  });

  describe('size', () => {
    it('refuses a declared 2 MB body with 413', async () => {
      const reply = await send(json({ blob: 'x'.repeat(2_000_000) }));
      expectRefusal(reply, 413, 'FST_ERR_CTP_BODY_TOO_LARGE', 'body must NOT be larger than 1000000 bytes');
      assert.equal(reply.body.error, 'Payload Too Large');
    });
    it('refuses a streamed (chunked) 2 MB body with 413', async () => {
      const reply = await send(json({ blob: 'x'.repeat(2_000_000) }), undefined, '/', true);
      expectRefusal(reply, 413, 'FST_ERR_CTP_BODY_TOO_LARGE', 'body must NOT be larger than 1000000 bytes');
    });
    it('answers 413 as soon as the limit is passed, without waiting for the rest of the body', async () => {
      const reply = await new Promise<Reply>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
        req.on('response', (res) => parseReply(res).then((r) => (req.destroy(), resolve(r)), reject));
        req.on('error', () => undefined); // the destroy above may surface here
        req.write(Buffer.alloc(1_100_000, 0x20)); // past the limit, and the request is never ended
      });
      expectRefusal(reply, 413, 'FST_ERR_CTP_BODY_TOO_LARGE', /1000000 bytes/);
    });
    it('takes exactly maxBytes and refuses one byte more', async () => {
      const exact = json({ a: 'x'.repeat(8) }); // 16 bytes
      assert.equal(Buffer.byteLength(exact), 16);
      assert.equal((await send(exact, undefined, '/small')).status, 200);
      expectRefusal(await send(json({ a: 'x'.repeat(9) }), undefined, '/small'), 413, 'FST_ERR_CTP_BODY_TOO_LARGE', 'body must NOT be larger than 16 bytes');
    });
    it('counts bytes, not characters', async () => {
      const reply = await send(json({ a: 'é'.repeat(8) }), undefined, '/small'); // 16 characters, 24 bytes
      assert.equal(reply.status, 413);
    });
    it('keeps serving after a 413', async () => {
      await send(json({ blob: 'x'.repeat(2_000_000) }));
      assert.equal((await send(json({ ok: true }))).status, 200);
    });
    it('accepts a 100k-character string field', async () => {
      const reply = await send(json({ bot_name: 'x'.repeat(100_000) }));
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.data?.body, { bot_name: '<100000 chars>' });
    });
  });

  describe('encoding and syntax', () => {
    const invalidUtf8: Array<[string, number[]]> = [
      ['a lone 0xff byte', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]],
      ['a truncated sequence', [0x22, 0xe2, 0x82, 0x22]],
      ['an encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22]],
      ['an overlong slash', [0x22, 0xc0, 0xaf, 0x22]],
    ];
    for (const [name, bytes] of invalidUtf8) {
      it(`refuses ${name} as invalid UTF-8`, async () => {
        expectRefusal(await send(Buffer.from(bytes)), 400, 'FST_ERR_VALIDATION', 'body is not valid UTF-8');
      });
    }
    it('accepts multi-byte UTF-8 and a byte-order mark', async () => {
      const reply = await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json({ name: 'Zoë 🤖 ナカムラ' }))]));
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.data?.body, { name: 'Zoë 🤖 ナカムラ' });
    });
    const malformed = ['{"a":', '{"a":1,}', "{'a':1}", '{"a":1}}', 'undefined', '{"a":1} x'];
    for (const text of malformed) {
      it(`refuses malformed JSON ${JSON.stringify(text)} with 400 naming body`, async () => {
        expectRefusal(await send(text), 400, 'FST_ERR_VALIDATION', /^body is not valid JSON/);
      });
    }
    it('returns scalars and arrays as parsed (callers decide what they need)', async () => {
      assert.deepEqual((await send('42')).body.data, { type: 'number', body: 42 });
      assert.deepEqual((await send('[1,2]')).body.data, { type: 'array', body: [1, 2] });
    });
  });

  describe('nesting', () => {
    it('refuses 10k-deep nesting with 400, not a crash', async () => {
      const reply = await send('['.repeat(10_000) + ']'.repeat(10_000));
      expectRefusal(reply, 400, 'FST_ERR_VALIDATION', 'body must NOT be nested deeper than 32 levels');
    });
    it('refuses 10k-deep objects too', async () => {
      expectRefusal(await send('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)), 400, 'FST_ERR_VALIDATION', /nested deeper than 32/);
    });
    it('accepts 32 levels and refuses 33', async () => {
      assert.equal((await send('['.repeat(32) + ']'.repeat(32))).status, 200);
      assert.equal((await send('['.repeat(33) + ']'.repeat(33))).status, 400);
    });
    it('does not count brackets inside strings', async () => {
      const reply = await send(json({ text: '[[[[{{{{'.repeat(100), quoted: 'a \\" [[[[' }));
      assert.equal(reply.status, 200);
    });
  });

  describe('empty bodies', () => {
    it('reads an empty body as undefined', async () => assert.deepEqual((await send(undefined)).body.data, { type: 'none' }));
    it('reads a whitespace-only body as undefined', async () => assert.deepEqual((await send(' \n ')).body.data, { type: 'none' }));
    it('refuses an empty body where one is required', async () => {
      expectRefusal(await send(undefined, undefined, '/required'), 400, 'FST_ERR_VALIDATION', 'body must NOT be empty');
    });
  });
});

describe('nestingExceeds', () => {
  const cases: Array<[string, number, boolean]> = [
    ['1', 0, false],
    ['[]', 0, true],
    ['[]', 1, false],
    ['{"a":[{}]}', 3, false],
    ['{"a":[{}]}', 2, true],
    ['"[[[[[["', 1, false],
    ['["\\\\", [[]]]', 2, true], // an escaped backslash does not swallow the closing quote
    ['["\\"[[["]', 1, false], // an escaped quote does not end the string
  ];
  for (const [text, max, expected] of cases) {
    it(`${text} with max ${max} -> ${expected}`, () => assert.equal(nestingExceeds(text, max), expected));
  }
  it('scans a million-level document without recursion', () => assert.equal(nestingExceeds('['.repeat(1_000_000), 32), true));
});
