import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { ControlRequest } from '../../contract/bot-contract';
import { HttpControl } from '../../bot-runtime/control/http-control';
import { HttpStatusError } from '../../bot-runtime/http-client';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { HttpUploader } from '../../bot-runtime/uploaders/http-uploader';
import { sleep, tmpDir } from './support';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: Buffer;
}

/** A server answering from a script: `respond` decides each answer. */
const scriptedServer = async (respond: (seen: Seen, n: number) => { status: number; json?: unknown }) => {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const s = { method: req.method!, url: req.url!, auth: req.headers.authorization, body: Buffer.concat(chunks) };
    seen.push(s);
    const r = respond(s, seen.length);
    if (r.json !== undefined) res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.json));
    else res.writeHead(r.status).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
};

describe('bot-runtime HTTP clients of the internal API', () => {
  it('the reporter sends reports in order with the bearer token and retries 5xx', async () => {
    const srv = await scriptedServer((_s, n) => ({ status: n === 1 ? 503 : 204 }));
    try {
      const r = new HttpReporter({ baseUrl: `${srv.url}/`, token: 'tok' }, 'bot-1');
      await Promise.all([
        r.report({ kind: 'status', status: 'joining_call', at: 'a' }),
        r.report({ kind: 'status', status: 'in_waiting_room', at: 'b' }),
      ]);
      assert.deepEqual(srv.seen.map((s) => [s.method, s.url, s.auth]), [
        ['POST', '/internal/bots/bot-1/reports', 'Bearer tok'],
        ['POST', '/internal/bots/bot-1/reports', 'Bearer tok'],
        ['POST', '/internal/bots/bot-1/reports', 'Bearer tok'],
      ]);
      assert.deepEqual(srv.seen.slice(1).map((s) => JSON.parse(s.body.toString()).status), ['joining_call', 'in_waiting_room']);
    } finally {
      await srv.close();
    }
  });

  it('the reporter does not retry a 4xx', async () => {
    const srv = await scriptedServer(() => ({ status: 401 }));
    try {
      const r = new HttpReporter({ baseUrl: srv.url, token: 'bad' }, 'bot-1');
      await assert.rejects(r.report({ kind: 'status', status: 'joining_call', at: 'a' }), (e: unknown) => e instanceof HttpStatusError && e.status === 401);
      assert.equal(srv.seen.length, 1);
    } finally {
      await srv.close();
    }
  });

  it('the control channel long-polls, answers each request once, and answers a redelivered request again without running it twice', async () => {
    const request: ControlRequest = { id: 'r1', kind: 'chat', message: 'hi' };
    const srv = await scriptedServer((s, n) => {
      if (s.method === 'GET') return { status: 200, json: { requests: n <= 2 ? [request] : [] } };
      return { status: 204 };
    });
    const control = new HttpControl({ baseUrl: srv.url, token: 't' }, 'bot-1', { waitSeconds: 1 });
    let runs = 0;
    try {
      control.start(async (req) => (runs++, { id: req.id, ok: true }));
      await sleep(600);
      await control.stop();
      const gets = srv.seen.filter((s) => s.method === 'GET');
      assert.ok(gets.length >= 2);
      assert.equal(gets[0]!.url, '/internal/bots/bot-1/control?wait_seconds=1');
      const results = srv.seen.filter((s) => s.method === 'POST');
      assert.equal(runs, 1);
      assert.equal(results.length, 2);
      assert.equal(results[0]!.url, '/internal/bots/bot-1/control/r1/result');
      assert.deepEqual(JSON.parse(results[0]!.body.toString()), { id: 'r1', ok: true });
    } finally {
      await srv.close();
    }
  });

  it('the control channel keeps polling through a long outage without piling up abort listeners', async () => {
    // a port nobody listens on: every poll fails at once (connection refused)
    const closed = await scriptedServer(() => ({ status: 204 }));
    await closed.close();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    let failures = 0;
    const control = new HttpControl({ baseUrl: closed.url, token: 't' }, 'bot-1', {
      waitSeconds: 1,
      retryDelayMs: { base: 1, max: 2 },
      log: (msg) => {
        if (/control poll failed/.test(msg)) failures++;
      },
    });
    const signal = (control as unknown as { abort: AbortController }).abort.signal;
    let most = 0;
    try {
      control.start(async (req) => ({ id: req.id, ok: true }));
      while (failures < 40) {
        most = Math.max(most, getEventListeners(signal, 'abort').length);
        await sleep(1);
      }
    } finally {
      await control.stop();
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      process.off('warning', onWarning);
    }
    assert.ok(most <= 1, `at most one abort listener at a time, saw ${most}`);
    assert.ok(getEventListeners(signal, 'abort').length <= 1);
    assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
  });

  it('the uploader PUTs buffers and streamed files under the artifact key', async () => {
    const srv = await scriptedServer(() => ({ status: 204 }));
    const dir = tmpDir('bot-upload-');
    try {
      const u = new HttpUploader({ baseUrl: srv.url, token: 't' }, 'bot-1');
      await u.upload('audio_chunks/000001.webm', Buffer.from('chunk'), 'audio/webm');
      const file = path.join(dir, 'recording.mp4');
      fs.writeFileSync(file, Buffer.alloc(3 * 1024 * 1024, 7));
      await u.uploadFile('recording.mp4', file, 'video/mp4');
      assert.deepEqual(srv.seen.map((s) => [s.method, s.url, s.body.length]), [
        ['PUT', '/internal/bots/bot-1/artifacts/audio_chunks/000001.webm', 5],
        ['PUT', '/internal/bots/bot-1/artifacts/recording.mp4', 3 * 1024 * 1024],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await srv.close();
    }
  });
});
