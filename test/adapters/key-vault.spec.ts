import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import { CredentialSealer, KeyDestroyedError } from '../../src/adapters/key-vault/credential-sealer';
import { MongoKeyVault } from '../../src/adapters/key-vault/mongo-key-vault';
import type { KeyVault } from '../../src/adapters/key-vault/port';
import { PostgresKeyVault } from '../../src/adapters/key-vault/postgres-key-vault';
import { SqliteKeyVault } from '../../src/adapters/key-vault/sqlite-key-vault';
import { sharedFerretdb } from '../support/ferretdb';
import { freshPostgresDatabase } from '../support/postgres';

const box = new SecretBox(new ServiceKeys([randomBytes(32)]));

/** What every key vault must do: keys made once, kept, and destroyed for good (crypto-shredding of a credential). */
const keyVaultContract = (name: string, open: () => Promise<{ vault: KeyVault; reopen: () => Promise<KeyVault>; cleanup: () => Promise<void> }>) => {
  describe(`key vault contract: ${name}`, () => {
    let env: Awaited<ReturnType<typeof open>>;
    beforeEach(async () => {
      env = await open();
    });
    afterEach(async () => {
      await env.vault.close();
      await env.cleanup();
    });

    it('given a new id, when its key is asked for twice, then it is one 32-byte key, also after a restart', async () => {
      const first = await env.vault.keyFor('k1');
      assert.equal(first?.length, 32);
      assert.deepEqual(await env.vault.keyFor('k1'), first);
      assert.notDeepEqual(await env.vault.keyFor('k2'), first);
      await env.vault.close();
      env.vault = await env.reopen();
      assert.deepEqual(await env.vault.keyFor('k1'), first);
    });

    it('given a key that sealed a secret, when it is destroyed, then the secret can never be opened again, and the id is never made again', async () => {
      const sealer = new CredentialSealer(env.vault);
      const sealed = await sealer.seal('k3', 'refresh-token-value');
      assert.equal(await sealer.open('k3', sealed), 'refresh-token-value');
      await sealer.destroy('k3');
      assert.equal(await env.vault.keyFor('k3'), null);
      await assert.rejects(sealer.open('k3', sealed), KeyDestroyedError);
      await assert.rejects(sealer.seal('k3', 'again'), KeyDestroyedError);
      await sealer.destroy('never-made');
      assert.equal(await env.vault.keyFor('never-made'), null);
    });
  });
};

keyVaultContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'key-vault-'));
  const file = path.join(dir, 'keys.sqlite3');
  return { vault: new SqliteKeyVault(file, box), reopen: async () => new SqliteKeyVault(file, box), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe('key vault: SQLite file', () => {
  it('holds keys only sealed with the service secret, and a destroyed key’s bytes are gone from the file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'key-vault-'));
    const file = path.join(dir, 'keys.sqlite3');
    const vault = new SqliteKeyVault(file, box);
    try {
      const key = (await vault.keyFor('k'))!;
      const raw = () => readFileSync(file).toString('latin1') + readFileSync(`${file}-wal`, { flag: 'a+' }).toString('latin1');
      assert.ok(!raw().includes(key.toString('base64')), 'the key is not in the file as it is');
      const row = (vault as unknown as { read: { get: (id: string) => { sealed: string } } }).read.get('k');
      await vault.destroy('k');
      // v2.<key id>.<iv>.<tag>.<ciphertext>: none of what belongs to this key may remain
      for (const part of row.sealed.split('.').slice(2)) assert.ok(!raw().includes(part), 'the sealed key is gone from the file and its write-ahead log');
    } finally {
      await vault.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

let postgresUrl: Promise<string> | null = null;
keyVaultContract('PostgreSQL', async () => {
  const url = await (postgresUrl ??= freshPostgresDatabase('key_vault'));
  return { vault: await PostgresKeyVault.connect(url, box), reopen: () => PostgresKeyVault.connect(url, box), cleanup: async () => undefined };
});

describe('key vault: PostgreSQL', () => {
  it('keeps a key in one place for every instance, and a destroyed key\'s sealed bytes are gone from the table\'s pages', async () => {
    const url = await freshPostgresDatabase('key_vault_pages');
    const one = await PostgresKeyVault.connect(url, box);
    const other = await PostgresKeyVault.connect(url, box);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const key = await one.keyFor('shared');
      assert.deepEqual(await other.keyFor('shared'), key, 'the other instance opens the same key');
      const { rows } = await client.query<{ sealed: string }>('SELECT sealed FROM credential_keys WHERE id = $1', ['shared']);
      const sealed = rows[0]!.sealed;
      assert.ok(!sealed.includes(key!.toString('base64')), 'the key is stored sealed');
      // every tuple version on the table's pages, dead ones included
      await client.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
      const pages = async () => {
        const { rows: size } = await client.query<{ pages: string }>("SELECT pg_relation_size('credential_keys') / current_setting('block_size')::int AS pages");
        let raw = '';
        for (let page = 0; page < Number(size[0]!.pages); page++) {
          const { rows: block } = await client.query<{ bytes: Buffer }>('SELECT get_raw_page($1, $2) AS bytes', ['credential_keys', page]);
          raw += block[0]!.bytes.toString('latin1');
        }
        return raw;
      };
      assert.ok((await pages()).includes(sealed), 'the pages are read as they are');
      await other.destroy('shared');
      assert.equal(await one.keyFor('shared'), null, 'destroyed through one instance, gone for the other');
      assert.ok(!(await pages()).includes(sealed), 'the sealed key is gone from the table\'s pages');
    } finally {
      await client.end();
      await one.close();
      await other.close();
    }
  });
});

let mongoTarget: Promise<{ url: string; database: string }> | null = null;
keyVaultContract('MongoDB wire protocol on FerretDB', async () => {
  const { url, database } = await (mongoTarget ??= sharedFerretdb().then((f) => ({ url: f.url, database: f.databaseName('key_vault') })));
  return {
    vault: new MongoKeyVault(url, database, box),
    reopen: async () => new MongoKeyVault(url, database, box),
    cleanup: async () => {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
});
