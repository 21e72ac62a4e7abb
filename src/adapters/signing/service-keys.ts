import { createHash, hkdfSync } from 'node:crypto';

/** What each derived key is for: one key per purpose, so that no value made for one can pass for another. */
export type KeyPurpose = 'seal' | 'bot-token' | 'artifact-link' | 'calendar-channel' | 'sign-in-ticket';

/** A configured secret shorter than this is refused: 32 bytes is the AES-256 and HMAC-SHA-256 key size. */
export const MIN_SECRET_BYTES = 32;

const SALT = Buffer.from('meeting-bot-service keys v2', 'utf8');

const derive = (master: Buffer, info: string, length: number): Buffer => Buffer.from(hkdfSync('sha256', master, SALT, info, length));

/** The id every sealed value and signature names its key by: derived from the key, so nothing has to name keys. */
const keyIdOf = (master: Buffer): string => derive(master, 'key-id', 6).toString('base64url');

/** One master secret and the keys derived from it (HKDF-SHA-256, one per purpose). */
export interface ServiceKey {
  readonly id: string;
  keyFor(purpose: KeyPurpose): Buffer;
  /** The one secret as the service used it before key ids, for values made then (read-only uses). */
  readonly legacyMaster: Buffer;
}

const serviceKey = (master: Buffer): ServiceKey => {
  const derived = new Map<KeyPurpose, Buffer>();
  return {
    id: keyIdOf(master),
    legacyMaster: master,
    keyFor: (purpose) => {
      let key = derived.get(purpose);
      if (!key) {
        key = derive(master, purpose, 32);
        derived.set(purpose, key);
      }
      return key;
    },
  };
};

/**
 * The service's key ring: the current key seals and signs; previous keys still open and verify what they
 * sealed or signed, until they are retired (removed from the configuration). Rotation: make a new secret
 * the current one and keep the old one as previous (README, "Security").
 */
export class ServiceKeys {
  readonly current: ServiceKey;
  readonly all: readonly ServiceKey[];
  private readonly byId: ReadonlyMap<string, ServiceKey>;

  /**
   * `secrets`: the current one first (at least MIN_SECRET_BYTES long), then the previous ones (any length:
   * they only open and verify what was made with them, and a deployment's old short secret must stay usable).
   */
  constructor(secrets: readonly Buffer[]) {
    const current = secrets[0];
    if (current === undefined) throw new Error('the service needs at least one key');
    if (current.length < MIN_SECRET_BYTES) throw new Error(`the current service secret must be at least ${MIN_SECRET_BYTES} bytes long (got ${current.length})`);
    if (secrets.some((s) => s.length === 0)) throw new Error('a service secret cannot be empty');
    const unique = [...new Map(secrets.map((s) => [createHash('sha256').update(s).digest('hex'), s])).values()];
    this.all = unique.map(serviceKey);
    this.current = this.all[0]!;
    this.byId = new Map(this.all.map((k) => [k.id, k]));
  }

  /** The key named by a sealed value or a signature; null when it was retired (or never ours). */
  withId(id: string): ServiceKey | null {
    return this.byId.get(id) ?? null;
  }
}
