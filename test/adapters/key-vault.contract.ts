import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import { CredentialSealer, KeyDestroyedError } from '../../src/adapters/key-vault/credential-sealer';
import type { KeyRecords } from '../../src/adapters/key-vault/key-records';
import type { KeyVault } from '../../src/adapters/key-vault/port';
import { openSealedKeyVault } from '../../src/adapters/key-vault/sealed-key-vault';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';

const OLD_SECRET = Buffer.alloc(32, 1);
const NEW_SECRET = Buffer.alloc(32, 2);
export const boxOf = (...secrets: Buffer[]): SecretBox => new SecretBox(new ServiceKeys(secrets));

export interface KeyVaultEngine {
  /** Records over the suite's storage: every call is another instance (another process, another machine) on the same one. */
  readonly records: () => Promise<KeyRecords>;
  /** The sealed key the storage still holds for the owner, read behind the vault's back (null: none). */
  readonly sealedKept: (owner: string) => Promise<string | null>;
  readonly cleanup?: () => Promise<void>;
}

/**
 * What every engine under the key vault must give both its users (bots' personal data, vc credentials'
 * secrets): a key per owner made once however many instances ask, kept, destroyed for good with a
 * tombstone, and sealed again under the current service key so that a rotation loses none. Owners are
 * unique per test, so that the suite can run against a shared server.
 */
export function keyVaultContract(name: string, engine: KeyVaultEngine): void {
  describe(`key vault contract: ${name}`, () => {
    let opened: KeyVault[] = [];
    let owner: (label: string) => string;
    /** another instance of the vault on the same storage, under the service keys given (the current one first) */
    const instance = async (box = boxOf(OLD_SECRET)): Promise<KeyVault> => {
      const vault = await openSealedKeyVault(await engine.records(), box);
      opened.push(vault);
      return vault;
    };
    beforeEach(() => {
      const run = randomBytes(6).toString('hex');
      owner = (label) => `${label}-${run}`;
    });
    afterEach(async () => {
      await Promise.all(opened.map((vault) => vault.close()));
      opened = [];
    });
    after(async () => {
      await engine.cleanup?.();
    });

    it('given no key, when one is asked for to seal, then it is 32 bytes, the same every time and in every instance', async () => {
      const vault = await instance();
      const bot = owner('bot-1');
      assert.deepEqual(await vault.lookup(bot), { state: 'none' });
      const key = await vault.keyToSeal(bot);
      assert.equal(key?.length, 32);
      assert.deepEqual(await vault.keyToSeal(bot), key);
      assert.deepEqual(await vault.lookup(bot), { state: 'live', key });
      assert.notDeepEqual(await vault.keyToSeal(owner('bot-2')), key, 'a key per owner');
      assert.deepEqual(await (await instance()).keyToSeal(bot), key, 'another instance');
    });

    it('given several instances asking at once for new owners, then each owner gets one key, the same for all', async () => {
      const vaults = await Promise.all([instance(), instance(), instance()]);
      for (const label of ['race-1', 'race-2', 'race-3']) {
        const keys = await Promise.all(vaults.flatMap((vault) => [vault.keyToSeal(owner(label)), vault.keyToSeal(owner(label))]));
        for (const key of keys) assert.deepEqual(key, keys[0], label);
        assert.equal(keys[0]?.length, 32);
      }
    });

    it('given a live key, when it is destroyed, then it is gone for good, in every instance, and never made again', async () => {
      const vault = await instance();
      const other = await instance();
      const bot = owner('bot-3');
      await vault.keyToSeal(bot);
      assert.equal((await other.lookup(bot)).state, 'live');
      assert.notEqual(await engine.sealedKept(bot), null);
      await vault.destroy(bot, '2026-03-03T10:00:00.000Z');
      assert.equal(await engine.sealedKept(bot), null, 'the sealed key is gone from the store');
      assert.deepEqual(await other.lookup(bot), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
      assert.equal(await other.keyToSeal(bot), null);
      assert.equal(await vault.keyToSeal(bot), null);
      assert.deepEqual(await (await instance()).lookup(bot), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
    });

    it('given an owner that never had a key (events written before keys), when destroyed, then its tombstone says so', async () => {
      const vault = await instance();
      const bot = owner('bot-old');
      await vault.destroy(bot, '2026-03-03T10:00:00.000Z');
      assert.deepEqual(await vault.lookup(bot), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
      assert.equal(await vault.keyToSeal(bot), null);
    });

    it('given a destroyed key, when destroyed again, then the first time stays (idempotent)', async () => {
      const vault = await instance();
      const bot = owner('bot-4');
      await vault.keyToSeal(bot);
      await vault.destroy(bot, '2026-03-03T10:00:00.000Z');
      await (await instance()).destroy(bot, '2026-03-04T10:00:00.000Z');
      assert.deepEqual(await vault.lookup(bot), { state: 'destroyed', destroyedAt: '2026-03-03T10:00:00.000Z' });
    });

    it('given instances making and destroying the same new keys at once, then every one ends destroyed, everywhere', async () => {
      const [maker, destroyer, reader] = await Promise.all([instance(), instance(), instance()]);
      const bots = Array.from({ length: 10 }, (_, i) => owner(`contended-${i}`));
      await Promise.all(bots.flatMap((bot) => [maker.keyToSeal(bot), destroyer.destroy(bot, '2026-03-05T10:00:00.000Z'), maker.keyToSeal(bot)]));
      for (const bot of bots) {
        assert.equal((await reader.lookup(bot)).state, 'destroyed', bot);
        assert.equal(await maker.keyToSeal(bot), null, bot);
        assert.equal(await engine.sealedKept(bot), null, `no sealed key of ${bot} is left in the store`);
      }
    });

    it('given keys sealed under a previous service key, when an instance opens with the new key first, then they are sealed again: retiring the old key loses none', async () => {
      const before = await instance(boxOf(OLD_SECRET));
      const bot = owner('bot-rotated');
      const key = await before.keyToSeal(bot);
      await instance(boxOf(NEW_SECRET, OLD_SECRET));
      const retired = await instance(boxOf(NEW_SECRET));
      assert.deepEqual(await retired.lookup(bot), { state: 'live', key });
    });

    it('given a key sealed under a service key no instance has any more, then it reads as no key, not as an error, and no other key replaces it', async () => {
      const before = await instance(boxOf(OLD_SECRET));
      const bot = owner('bot-lost');
      await before.keyToSeal(bot);
      const lost = await instance(boxOf(NEW_SECRET));
      assert.deepEqual(await lost.lookup(bot), { state: 'none' });
      assert.equal(await lost.keyToSeal(bot), null, 'what the old key sealed must not pass for what a new one seals');
    });

    it("given a credential's secret sealed with its key, when the key is destroyed, then it never opens again and nothing more is sealed with it", async () => {
      const sealer = new CredentialSealer(await instance(), () => new Date('2026-03-06T10:00:00.000Z'));
      const credentialKey = owner('credential');
      const sealed = await sealer.seal(credentialKey, 'refresh-token-value');
      assert.equal(await new CredentialSealer(await instance()).open(credentialKey, sealed), 'refresh-token-value', 'another instance opens it');
      await sealer.destroy(credentialKey);
      await assert.rejects(sealer.open(credentialKey, sealed), KeyDestroyedError);
      await assert.rejects(sealer.seal(credentialKey, 'again'), KeyDestroyedError);
      assert.deepEqual(await (await instance()).lookup(credentialKey), { state: 'destroyed', destroyedAt: '2026-03-06T10:00:00.000Z' });
    });
  });
}
