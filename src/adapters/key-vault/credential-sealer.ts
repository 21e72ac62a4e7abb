import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Sealed } from '../../domain/codec-helpers';
import { KeyDestroyedError, type CredentialSeals, type KeyVault } from './port';

export { KeyDestroyedError };

const VERSION = 'k1';

/**
 * Seals and opens a credential's secrets with that credential's own key from the vault (AES-256-GCM, as
 * the service's SecretBox, but a key per credential so that one can be destroyed alone).
 */
export class CredentialSealer implements CredentialSeals {
  constructor(
    private readonly vault: KeyVault,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async seal(keyId: string, plain: string): Promise<Sealed> {
    const key = await this.vault.keyToSeal(keyId);
    if (key === null) throw new KeyDestroyedError(keyId);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { sealed: [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.') };
  }

  async open(keyId: string, secret: Sealed): Promise<string> {
    const [version, iv, tag, body] = secret.sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a value sealed with a credential key');
    // Destroyed, or sealed under a service key that was retired: either way it opens no more.
    const found = await this.vault.lookup(keyId);
    if (found.state !== 'live') throw new KeyDestroyedError(keyId);
    const decipher = createDecipheriv('aes-256-gcm', found.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  destroy(keyId: string): Promise<void> {
    return this.vault.destroy(keyId, this.clock().toISOString());
  }
}
