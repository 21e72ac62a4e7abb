import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { LocalFolderObjectStore } from '../../src/adapters/object-store/local-folder-object-store';
import { Signer } from '../../src/adapters/signing/signer';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import type { AppState } from '../../src/http/app-context';
import { serviceSignedLink } from '../../src/http/artifacts/artifact-links';
import { artifactsRouter } from '../../src/http/artifacts/artifacts-router';
import { errorEnvelope } from '../../src/http/middleware/error-envelope';

const BOT = '6f1c1c3e-7a53-4d0e-9a43-2b6f3d7f3a10';

/** Bot-uploaded artifacts are served from the service's own origin: a bot must not be able to serve a page there. */
describe('artifact downloads never serve active content', () => {
  const signer = new Signer(new ServiceKeys([Buffer.alloc(32, 7)]));
  const folder = mkdtempSync(path.join(os.tmpdir(), 'artifact-downloads-'));
  const store = new LocalFolderObjectStore(folder, serviceSignedLink(signer, () => base));
  const now = Date.UTC(2026, 0, 1);
  let server: Server;
  let base: string;

  before(async () => {
    const app = new Koa<AppState>();
    app.use(errorEnvelope());
    app.use(artifactsRouter(store, signer, () => now).routes());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const download = async (key: string, bytes: string, contentType: string) => {
    await store.put(`${BOT}/${key}`, Buffer.from(bytes), contentType);
    const expires = Math.floor(now / 1000) + 3600;
    const response = await fetch(`${base}/artifacts/${BOT}/${key}?expires=${expires}&signature=${signer.signArtifact(BOT, key, expires)}`);
    assert.equal(response.status, 200);
    return { headers: response.headers, text: await response.text() };
  };

  const assertLockedDown = (headers: Headers) => {
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    assert.match(headers.get('content-security-policy') ?? '', /\bsandbox\b/);
  };

  for (const declared of ['text/html', 'text/html; charset=utf-8', 'TEXT/HTML', 'image/svg+xml', 'application/xhtml+xml', 'text/javascript', '']) {
    it(`serves an artifact stored as ${JSON.stringify(declared)} as an opaque download`, async () => {
      const page = '<html><script>alert(document.cookie)</script></html>';
      const { headers, text } = await download('page.html', page, declared);
      assert.equal(headers.get('content-type'), 'application/octet-stream');
      assert.equal(headers.get('content-disposition'), 'attachment; filename="page.html"');
      assertLockedDown(headers);
      assert.equal(text, page, 'the bytes are unchanged');
    });
  }

  const allowed: Array<[string, string, string]> = [
    ['recording.mp4', 'video/mp4', 'video/mp4'],
    ['recording.mp3', 'audio/mpeg', 'audio/mpeg'],
    ['audio_chunks/000001.webm', 'audio/webm', 'audio/webm'],
    ['audio_chunks/000002.webm', 'audio/webm;codecs=opus', 'audio/webm'],
    ['recording.mkv', 'video/x-matroska', 'video/x-matroska'],
    ['screenshots/1.png', 'image/png', 'image/png'],
    ['chat_messages.json', 'application/json', 'application/json'],
    ['bot.log', 'text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    ['transcript.vtt', 'text/vtt', 'text/vtt; charset=utf-8'],
  ];
  for (const [key, declared, served] of allowed) {
    it(`serves ${key} declared as ${declared} as ${served}, inline`, async () => {
      const { headers } = await download(key, 'bytes', declared);
      assert.equal(headers.get('content-type'), served);
      assert.equal(headers.get('content-disposition'), null);
      assertLockedDown(headers);
    });
  }
});
