/**
 * The bot's connections to what customers name (streaming sockets, bot images, their bucket): in production
 * only public addresses, judged on the address the socket really connects to (a name that resolves to a
 * private address is caught when it is resolved for the connection, whatever it resolved to before), and
 * failures told without the hosts behind them (no address, port or system error text).
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { BotLog } from '../../bot-runtime/bot-log';
import type { S3UploadTarget } from '../../contract/bot-contract';
import { fetchBotImages } from '../../bot-runtime/media/bot-images';
import { AudioStreaming } from '../../bot-runtime/streaming/audio-streaming';
import { S3Uploader } from '../../bot-runtime/uploaders/s3-uploader';
import { MIN_PART_SIZE, NO_RETRY } from '../../src/adapters/object-store/s3-upload';
import { freePort } from '../support/free-port';

/** What a port scanner would learn from: a loopback address, a port of this test, a system error. */
const leaks = (text: string, port: number) => [/127\.0\.0\.1/, /::1\b/, new RegExp(`\\b${port}\\b`), /E[A-Z]{4,}/, /connect /].filter((re) => re.test(text));

const bucketAt = (endpoint: string): S3UploadTarget => ({
  kind: 's3',
  endpoint,
  region: 'us-east-1',
  force_path_style: true,
  buckets: { artifacts: 'artifacts', audio_chunks: 'artifacts', logs: 'artifacts' },
  access_key_id: 'k',
  secret_access_key: 's',
  prefix: 'b',
  spill: null,
});

describe("the bot's connections to customers' endpoints", () => {
  let server: net.Server;
  let port: number;
  let connections = 0;

  before(async () => {
    server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (connections = 0));

  const streaming = (url: string, publicOnly: boolean, log = new BotLog(null)) =>
    new AudioStreaming({ output_url: url, input_url: null, audio_frequency: 16_000 }, { botId: 'b', extraCa: null, publicOnly, log, onInput: () => undefined });

  describe('public addresses only (production)', () => {
    it('a streaming socket to a name that resolves to loopback never connects; the reason names no address', async () => {
      await assert.rejects(streaming(`ws://localhost:${port}/out`, true).connect(), (err: Error) => {
        assert.match(err.message, /streaming output ws:\/\/localhost:\d+\/out: its address is not a public one$/);
        assert.doesNotMatch(err.message, /127\.0\.0\.1|::1/);
        return true;
      });
      assert.equal(connections, 0);
    });

    it('a streaming socket to a private literal address never connects', async () => {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '10.255.255.1', '[64:ff9b::a9fe:a9fe]']) {
        await assert.rejects(streaming(`ws://${host}:${port}/out`, true).connect(), /its address is not a public one/, host);
      }
      assert.equal(connections, 0);
    });

    it('a bot image on a private address is left out without a request', async () => {
      const log = new BotLog(null);
      const images = await fetchBotImages([`https://localhost:${port}/a.png`, `https://10.255.255.1/b.png`, `https://[::1]:${port}/c.png`], {
        extraCa: null,
        publicOnly: true,
        signal: new AbortController().signal,
        log,
      });
      assert.deepEqual(images, []);
      assert.equal(log.text().match(/its address is not a public one/g)?.length, 3, log.text());
      assert.equal(connections, 0);
    });

    it("an upload to a customer's bucket on a private address is refused on connection", async () => {
      const uploader = new S3Uploader(bucketAt(`http://localhost:${port}`), true, MIN_PART_SIZE, NO_RETRY);
      await assert.rejects(uploader.upload('recording.mp3', Buffer.from('x'), 'audio/mpeg', 'recording'), (err: Error) => {
        assert.equal(err.message, 'bucket artifacts refused b/recording.mp3: its address is not a public one');
        return true;
      });
      assert.equal(connections, 0);
    });
  });

  it("an upload to a bucket that keeps its answer trickling is given up at the request's deadline", async () => {
    // answers a status line, then a byte of a header every 100 ms: never idle, never done
    const trickling = net.createServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
      const t = setInterval(() => socket.write('a'), 100);
      socket.on('close', () => clearInterval(t));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => trickling.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(trickling.address() as net.AddressInfo).port}`;
    try {
      const uploader = new S3Uploader(bucketAt(endpoint), false, MIN_PART_SIZE, NO_RETRY, 1000);
      await assert.rejects(uploader.upload('recording.mp3', Buffer.from('x'), 'audio/mpeg', 'recording'), /^Error: bucket artifacts refused b\/recording\.mp3: it did not answer in time$/);
    } finally {
      trickling.close();
    }
  });

  describe('private addresses allowed (development): failures still told without the hosts behind them', () => {
    it('a refused streaming connection', async () => {
      const closed = await freePort();
      const log = new BotLog(null);
      await assert.rejects(streaming(`ws://127.0.0.1:${closed}/out`, false, log).connect(), (err: Error) => {
        const reason = err.message.replace(`ws://127.0.0.1:${closed}/out`, '<the customer’s URL>');
        assert.equal(reason, 'streaming output <the customer’s URL>: the connection failed');
        return true;
      });
      assert.deepEqual(leaks(log.text().replaceAll(`ws://127.0.0.1:${closed}/out`, ''), closed), [], log.text());
    });

    it('a refused image fetch and a name that does not resolve', async () => {
      const closed = await freePort();
      const log = new BotLog(null);
      const images = await fetchBotImages([`https://127.0.0.1:${closed}/a.png`, 'https://no-such-host.invalid/b.png'], {
        extraCa: null,
        publicOnly: false,
        signal: new AbortController().signal,
        log,
      });
      assert.deepEqual(images, []);
      assert.match(log.text(), /bot image 1 left out \(127\.0\.0\.1:\d+\): the connection failed\n/);
      assert.match(log.text(), /bot image 2 left out \(no-such-host\.invalid\): its host name could not be resolved\n/);
      assert.deepEqual(leaks(log.text().replaceAll(`127.0.0.1:${closed}`, ''), closed), [], log.text());
    });
  });
});
