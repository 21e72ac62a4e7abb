import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import { SqliteDataKeyStore } from '../../src/adapters/data-keys/sqlite-data-key-store';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import { dataKeyStoreContract } from './data-key-store.contract';

const OLD_SECRET = Buffer.alloc(32, 1);
const NEW_SECRET = Buffer.alloc(32, 2);
const boxOf = (...secrets: Buffer[]) => new SecretBox(new ServiceKeys(secrets));

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'data-keys-'));

dataKeyStoreContract('SQLite file', async () => {
  const dir = folder();
  const file = path.join(dir, 'data-keys.sqlite3');
  return {
    store: new SqliteDataKeyStore(file, boxOf(OLD_SECRET)),
    another: async () => new SqliteDataKeyStore(file, boxOf(OLD_SECRET)),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('data key store: the SQLite file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = folder();
    file = path.join(dir, 'data-keys.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The file and its write-ahead log, as bytes someone copying the data folder would get. */
  const onDisk = () => ['', '-wal'].map((suffix) => (existsSync(file + suffix) ? readFileSync(file + suffix).toString('latin1') : '')).join('');
  const sealedOf = (store: SqliteDataKeyStore, owner: string): string =>
    ((store as unknown as { statements: { read: { get: (o: string) => { sealed: string } } } }).statements.read.get(owner)).sealed;

  it('keeps keys only sealed with the service secret: a copy of the data folder alone opens nothing', async () => {
    const store = new SqliteDataKeyStore(file, boxOf(OLD_SECRET));
    try {
      const key = (await store.keyToSeal('bot-1'))!;
      for (const form of [key.toString('base64'), key.toString('hex'), key.toString('latin1')]) assert.ok(!onDisk().includes(form), 'no key in clear');
      assert.throws(() => boxOf(NEW_SECRET).open({ sealed: sealedOf(store, 'bot-1') }), /does not have/, 'another secret opens nothing');
    } finally {
      await store.close();
    }
  });

  it("erases a destroyed key's bytes from the file and its write-ahead log", async () => {
    const store = new SqliteDataKeyStore(file, boxOf(OLD_SECRET));
    try {
      await store.keyToSeal('bot-1');
      await store.keyToSeal('bot-2');
      const sealed = sealedOf(store, 'bot-1');
      assert.ok(onDisk().includes(sealed.split('.')[4]!));
      await store.destroy('bot-1', '2026-03-03T10:00:00.000Z');
      assert.ok(!onDisk().includes(sealed.split('.')[4]!), 'the sealed key is gone from the disk');
      assert.equal((await store.lookup('bot-2')).state, 'live', 'the others stay');
    } finally {
      await store.close();
    }
  });

  it('keys sealed under a previous service secret are sealed again under the current one when the store opens: retiring the old secret then loses nothing', async () => {
    const before = new SqliteDataKeyStore(file, boxOf(OLD_SECRET));
    const key = await before.keyToSeal('bot-1');
    await before.close();
    // A restart with the new secret first and the old one kept: nothing is read, the keys are sealed again.
    await new SqliteDataKeyStore(file, boxOf(NEW_SECRET, OLD_SECRET)).close();
    const retired = new SqliteDataKeyStore(file, boxOf(NEW_SECRET));
    try {
      assert.deepEqual(await retired.lookup('bot-1'), { state: 'live', key });
    } finally {
      await retired.close();
    }
  });

  it('a key sealed under a secret the service no longer has reads as no key (its fields as deleted), not as an error', async () => {
    const before = new SqliteDataKeyStore(file, boxOf(OLD_SECRET));
    await before.keyToSeal('bot-1');
    await before.close();
    const lost = new SqliteDataKeyStore(file, boxOf(NEW_SECRET));
    try {
      assert.deepEqual(await lost.lookup('bot-1'), { state: 'none' });
    } finally {
      await lost.close();
    }
  });
});
