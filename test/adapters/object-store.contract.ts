import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../src/adapters/object-store/port';

export interface ObjectStoreUnderTest {
  readonly store: ObjectStore;
  /** the size above which the store uploads in parts */
  readonly partSize: number;
  readonly cleanup: () => Promise<void>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const readAll = async (body: Readable): Promise<Buffer> => Buffer.concat(await body.toArray());

/** A stream of `bytes` in uneven chunks, as a socket delivers them; fails after `failAfter` bytes when given. */
const streamOf = (bytes: Buffer, failAfter?: number): Readable => {
  let offset = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && offset >= failAfter) {
        this.destroy(new Error('the uploader went away'));
        return;
      }
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const size = 100_000 + (offset % 7) * 13_001;
      this.push(bytes.subarray(offset, offset + size));
      offset += size;
    },
  });
};

export function objectStoreContract(name: string, make: () => Promise<ObjectStoreUnderTest>): void {
  describe(`object store contract: ${name}`, function () {
    this.timeout(60_000);
    let subject: ObjectStoreUnderTest;
    let store: ObjectStore;
    let prefix: string;

    before(async () => {
      subject = await make();
      store = subject.store;
    });
    after(async () => {
      await subject?.cleanup();
    });
    beforeEach(() => {
      prefix = randomUUID();
    });

    it('stores bytes and reads them back with their size and content type', async () => {
      const bytes = Buffer.from('{"hello":"Grüße 🎙️"}');
      assert.deepEqual(await store.put(`${prefix}/chat_messages.json`, bytes, 'application/json'), { sizeBytes: bytes.length });
      const object = await store.get(`${prefix}/chat_messages.json`);
      assert.ok(object);
      assert.equal(object.sizeBytes, bytes.length);
      assert.equal(object.contentType, 'application/json');
      assert.deepEqual(await readAll(object.body), bytes);
    });

    it('stores an empty object', async () => {
      assert.deepEqual(await store.put(`${prefix}/empty.txt`, Readable.from([]), 'text/plain'), { sizeBytes: 0 });
      const object = await store.get(`${prefix}/empty.txt`);
      assert.equal(object?.sizeBytes, 0);
      assert.equal((await readAll(object!.body)).length, 0);
    });

    it('answers null for an object that does not exist', async () => {
      assert.equal(await store.get(`${prefix}/missing.mp4`), null);
    });

    it('streams a body of several parts in and out unchanged', async () => {
      const bytes = randomBytes(2 * subject.partSize + 1_234_567);
      const stored = await store.put(`${prefix}/recording.mp4`, streamOf(bytes), 'video/mp4');
      assert.equal(stored.sizeBytes, bytes.length);
      const object = await store.get(`${prefix}/recording.mp4`);
      assert.equal(object?.sizeBytes, bytes.length);
      assert.equal(sha256(await readAll(object!.body)), sha256(bytes));
    });

    it('stores a body of exactly one part', async () => {
      const bytes = randomBytes(subject.partSize);
      assert.equal((await store.put(`${prefix}/one-part.bin`, streamOf(bytes), 'application/octet-stream')).sizeBytes, bytes.length);
      assert.equal(sha256(await readAll((await store.get(`${prefix}/one-part.bin`))!.body)), sha256(bytes));
    });

    it('replaces an object that is put again', async () => {
      await store.put(`${prefix}/bot.log`, Buffer.from('first'), 'text/plain');
      await store.put(`${prefix}/bot.log`, Buffer.from('second, longer'), 'text/plain');
      assert.equal((await readAll((await store.get(`${prefix}/bot.log`))!.body)).toString(), 'second, longer');
    });

    it('keeps the previous object when an upload fails half-way, and stores nothing new', async () => {
      const before = Buffer.from('the complete earlier upload');
      await store.put(`${prefix}/recording.mp4`, before, 'video/mp4');
      const bytes = randomBytes(2 * subject.partSize + 10);
      await assert.rejects(store.put(`${prefix}/recording.mp4`, streamOf(bytes, subject.partSize + 200_000), 'video/mp4'));
      assert.deepEqual(await readAll((await store.get(`${prefix}/recording.mp4`))!.body), before);
      await assert.rejects(store.put(`${prefix}/never.mp4`, streamOf(bytes, 300_000), 'video/mp4'));
      assert.equal(await store.get(`${prefix}/never.mp4`), null);
    });

    it('deletes an object; deleting what is gone is no error', async () => {
      await store.put(`${prefix}/audio_chunks/000001.webm`, Buffer.from('chunk'), 'audio/webm');
      await store.delete(`${prefix}/audio_chunks/000001.webm`);
      assert.equal(await store.get(`${prefix}/audio_chunks/000001.webm`), null);
      await store.delete(`${prefix}/audio_chunks/000001.webm`);
      await store.delete(`${prefix}/never-stored.webm`);
    });

    it("deletes everything under a bot's prefix, nested keys too, and only that; nothing there is no error", async () => {
      const other = randomUUID();
      const keys = [`${prefix}/recording.mp4`, `${prefix}/screenshots/1.png`, `${prefix}/screenshots/2.png`, `${prefix}/audio_chunks/000001.webm`];
      for (const key of keys) await store.put(key, Buffer.from(key), 'application/octet-stream');
      await store.put(`${other}/recording.mp4`, Buffer.from('another bot'), 'video/mp4');
      assert.deepEqual([...(await store.deleteAll(`${prefix}/`))].sort(), [...keys].sort());
      for (const key of keys) assert.equal(await store.get(key), null, key);
      assert.ok(await store.get(`${other}/recording.mp4`), "another bot's objects stay");
      assert.deepEqual(await store.deleteAll(`${prefix}/`), []);
      assert.deepEqual(await store.deleteAll(`${randomUUID()}/`), []);
      await store.deleteAll(`${other}/`);
    });

    it('gives a download link that works without credentials while it is valid', async () => {
      const bytes = randomBytes(300_000);
      await store.put(`${prefix}/recording.mp3`, bytes, 'audio/mpeg');
      const url = await store.downloadUrl(`${prefix}/recording.mp3`, { contentType: 'audio/mpeg', signedAt: new Date(), ttlSeconds: 7200 });
      const response = await fetch(url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'audio/mpeg');
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), bytes);
    });

    it('serves what a bot declared as active content as an opaque download', async () => {
      await store.put(`${prefix}/page.html`, Buffer.from('<script>alert(1)</script>'), 'text/html');
      const url = await store.downloadUrl(`${prefix}/page.html`, { contentType: 'text/html', signedAt: new Date(), ttlSeconds: 7200 });
      const response = await fetch(url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/octet-stream');
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename="page.html"');
    });

    it('refuses a link once it has expired, and a link whose signature was changed', async () => {
      await store.put(`${prefix}/recording.mp3`, Buffer.from('audio'), 'audio/mpeg');
      const expired = await store.downloadUrl(`${prefix}/recording.mp3`, { contentType: 'audio/mpeg', signedAt: new Date(Date.now() - 3 * 3600_000), ttlSeconds: 7200 });
      assert.equal((await fetch(expired)).status, 403);
      const valid = await store.downloadUrl(`${prefix}/recording.mp3`, { contentType: 'audio/mpeg', signedAt: new Date(), ttlSeconds: 7200 });
      const tampered = valid.replace(/([Ss]ignature=)(.)/, (_, name: string, first: string) => `${name}${first === 'a' ? 'b' : 'a'}`);
      assert.notEqual(tampered, valid);
      assert.equal((await fetch(tampered)).status, 403);
    });
  });
}
