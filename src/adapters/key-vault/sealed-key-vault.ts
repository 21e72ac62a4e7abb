import { randomBytes } from 'node:crypto';
import { sealingKeyIdOf, type SecretBox } from '../crypto/secret-box';
import type { KeyRecords } from './key-records';
import type { KeyLookup, KeyVault } from './port';

/** Keys kept opened in memory: the owners read most recently. */
const OPENED_KEYS_KEPT = 10_000;

/**
 * The key vault over any engine's records: keys made as 32 random bytes and kept sealed with the service's
 * secret box, opened when read (the record is read every time, since another instance may destroy it;
 * only the opening is saved), sealed again under the current service key when read or when the vault
 * opens (`resealUnderCurrentKey`), so that retiring a previous service key loses none.
 */
export class SealedKeyVault implements KeyVault {
  /** sealed text -> key */
  private readonly opened = new Map<string, Buffer>();

  constructor(
    private readonly records: KeyRecords,
    private readonly box: SecretBox,
  ) {}

  /** Every live key sealed under another service key is sealed again under the current one; a key no key of the ring opens stays as it is. */
  async resealUnderCurrentKey(): Promise<void> {
    for (const { owner, sealed } of await this.records.sealedUnderOtherKeys(this.box.currentKeyId)) {
      try {
        await this.open(owner, sealed);
      } catch {
        // sealed under a service key that was retired: it reads as no key
      }
    }
  }

  async keyToSeal(owner: string): Promise<Buffer | null> {
    const known = await this.lookup(owner);
    if (known.state === 'live') return known.key;
    if (known.state === 'destroyed') return null;
    // Two instances asking at once both insert; the first one wins and both read it back.
    await this.records.insert(owner, this.box.seal(randomBytes(32).toString('base64')).sealed);
    const found = await this.lookup(owner);
    return found.state === 'live' ? found.key : null;
  }

  async lookup(owner: string): Promise<KeyLookup> {
    const record = await this.records.read(owner);
    if (record === undefined) return { state: 'none' };
    if (record.sealed === null) return { state: 'destroyed', destroyedAt: record.destroyedAt };
    try {
      return { state: 'live', key: await this.open(owner, record.sealed) };
    } catch {
      // Sealed under a service key that was retired: what it sealed cannot be opened any more.
      return { state: 'none' };
    }
  }

  async destroy(owner: string, at: string): Promise<void> {
    const record = await this.records.read(owner);
    await this.records.destroy(owner, at);
    if (record?.sealed) this.opened.delete(record.sealed);
  }

  close(): Promise<void> {
    return this.records.close();
  }

  private async open(owner: string, sealed: string): Promise<Buffer> {
    const known = this.opened.get(sealed);
    if (known) return known;
    const key = Buffer.from(this.box.open({ sealed }), 'base64');
    if (sealingKeyIdOf({ sealed }) !== this.box.currentKeyId) await this.records.reseal(owner, sealed, this.box.seal(key.toString('base64')).sealed);
    this.opened.set(sealed, key);
    // A Map iterates in insertion order: the first entry is the one opened longest ago.
    if (this.opened.size > OPENED_KEYS_KEPT) this.opened.delete(this.opened.keys().next().value!);
    return key;
  }
}

/** The vault over `records`, its keys sealed under a previous service key sealed again under the current one. */
export const openSealedKeyVault = async (records: KeyRecords, box: SecretBox): Promise<KeyVault> => {
  const vault = new SealedKeyVault(records, box);
  await vault.resealUnderCurrentKey();
  return vault;
};
