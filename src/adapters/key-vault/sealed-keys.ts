import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box';

/**
 * How both vaults store a key: the 32 bytes sealed with the service secret's box (base64 inside), and a
 * tombstone (`destroyed`) once destroyed, so that a destroyed id is never made again.
 */
export interface StoredKey {
  readonly sealed: string | null;
}

export const newSealedKey = (box: SecretBox): string => box.seal(randomBytes(32).toString('base64')).sealed;

export const openStoredKey = (box: SecretBox, stored: StoredKey): Buffer | null =>
  stored.sealed === null ? null : Buffer.from(box.open({ sealed: stored.sealed }), 'base64');
