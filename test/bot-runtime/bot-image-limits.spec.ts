/**
 * A bot's picture fetches are bounded (no answer, a body that trickles, too large, too many) and a leave
 * stops them at once: a slow `bot_image` server never holds a bot, nor the slot it runs in.
 */
import assert from 'node:assert/strict';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { BotLog } from '../../bot-runtime/bot-log';
import { fetchBotImages, IMAGE_FETCH_LIMITS, type ImageFetchLimits } from '../../bot-runtime/media/bot-images';
import { makeCertificate } from '../../sandbox/certificate';
import { MemoryControl, MemoryReporter } from './support';
import { runBot } from '../../bot-runtime/run-bot';
import { FolderUploader } from '../../bot-runtime/uploaders/folder-uploader';
import { smallTimeouts, tmpDir } from './support';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** How each path answers: `silent` accepts and says nothing, `trickle` sends a byte a second, `huge` announces 6 MiB. */
const behaviours: Record<string, (res: import('node:http').ServerResponse) => void> = {
  '/silent.png': () => undefined,
  '/trickle.png': (res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(PNG_SIGNATURE);
    const t = setInterval(() => res.write(Buffer.from([0])), 1000);
    res.on('close', () => clearInterval(t));
  },
  '/huge.png': (res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(6 * 1024 * 1024) });
    res.write(PNG_SIGNATURE);
  },
  '/ok.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG_SIGNATURE, Buffer.alloc(64)])),
};

describe("the bot's picture fetches are bounded and stop when it leaves", function () {
  this.timeout(30_000);
  let server: https.Server;
  let base: string;
  let ca: string;
  const requests: string[] = [];
  let open = 0;

  before(async () => {
    const cert = await makeCertificate();
    ca = cert.certPem;
    server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
      requests.push(req.url ?? '');
      open++;
      res.on('close', () => open--);
      (behaviours[req.url ?? ''] ?? ((r) => r.writeHead(404).end()))(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (requests.length = 0));

  const waitUntil = async (ok: () => boolean) => {
    while (!ok()) await new Promise((r) => setTimeout(r, 20));
  };
  const fetch = (paths: string[], limits: ImageFetchLimits, signal = new AbortController().signal) => {
    const log = new BotLog(null);
    return fetchBotImages(paths.map((p) => `${base}${p}`), { extraCa: ca, publicOnly: false, signal, log, limits }).then((images) => ({ images, log: log.text() }));
  };
  // each limit shorter than the others, so that it is the one that stops the fetch, however busy the machine
  const noHeaders: ImageFetchLimits = { connectMs: 10_000, headersMs: 300, totalMs: 10_000, maxBytes: IMAGE_FETCH_LIMITS.maxBytes };
  const noWholeBody: ImageFetchLimits = { connectMs: 10_000, headersMs: 10_000, totalMs: 1500, maxBytes: IMAGE_FETCH_LIMITS.maxBytes };

  it('a server that never answers, or trickles its body, or sends too much is left out, its connection closed', async () => {
    const silent = await fetch(['/silent.png'], noHeaders);
    assert.deepEqual(silent.images, []);
    assert.match(silent.log, /bot image 1 left out \(127\.0\.0\.1:\d+\): no answer within 0\.3 s/);
    const trickling = await fetch(['/trickle.png', '/huge.png', '/ok.png'], noWholeBody);
    assert.equal(trickling.images.length, 1, trickling.log);
    assert.match(trickling.log, /bot image 1 left out \(127\.0\.0\.1:\d+\): not received whole within 1\.5 s/);
    assert.match(trickling.log, /bot image 2 left out \(127\.0\.0\.1:\d+\): larger than 5242880 bytes/);
    await waitUntil(() => open === 0);
  });

  it('fetches five images at most, whatever the job says', async () => {
    const { images } = await fetch(Array.from({ length: 7 }, () => '/ok.png'), IMAGE_FETCH_LIMITS);
    assert.equal(images.length, 5);
    assert.equal(requests.length, 5, requests.join(' '));
  });

  it('the end of the run stops the fetches at once, connections closed', async () => {
    const stop = new AbortController();
    const patient: ImageFetchLimits = { ...IMAGE_FETCH_LIMITS, headersMs: 600_000, totalMs: 600_000 };
    const fetching = fetch(['/silent.png', '/trickle.png'], patient, stop.signal);
    await waitUntil(() => requests.length === 2);
    stop.abort();
    const { images, log } = await fetching;
    assert.deepEqual(images, []);
    assert.equal(log.match(/left out \(127\.0\.0\.1:\d+\): the bot is leaving/g)?.length, 2, log);
    await waitUntil(() => open === 0);
  });

  it('a leave request while the pictures are fetched ends the bot before it joins, without waiting for them', async () => {
    const previous = process.env.BOT_TEST_CA_PEM;
    const out = tmpDir('bot-image-leave-');
    const reporter = new MemoryReporter();
    const control = new MemoryControl();
    const done = runBot(
      {
        bot_id: 'bot-image-leave',
        meeting_url: 'https://mt.localhost:1/abc-defg-hij',
        platform: 'mt',
        bot_name: 'Rec Bot',
        bot_image: [`${base}/trickle.png`],
        entry_message: null,
        recording_mode: 'audio_only',
        timeout_config: smallTimeouts,
        ignored_participant_names: [],
        upload: { kind: 'folder', path: out },
        trust_sandbox_certificate: false,
        private_addresses_allowed: true,
      },
      { reporter, uploader: new FolderUploader(out), control, log: new BotLog(null), testCaFromService: ca },
    );
    try {
      await waitUntil(() => requests.includes('/trickle.png'));
      assert.deepEqual(await control.send({ kind: 'leave' }), { id: 'req-1', ok: true });
      const end = await done;
      assert.equal(`${end.outcome} ${end.error_code}`, 'failed EXITING_MEETING_BEFORE_RECORD', end.error_message);
      assert.deepEqual(reporter.statuses(), ['joining_call'], 'the bot never went further');
      await waitUntil(() => open === 0);
    } finally {
      if (previous !== undefined) process.env.BOT_TEST_CA_PEM = previous;
    }
  });
});
