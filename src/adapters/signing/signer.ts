import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyPurpose, ServiceKey, ServiceKeys } from './service-keys';

const hmac = (key: Buffer, message: string): string => createHmac('sha256', key).update(message).digest('base64url');

/** How the service signed before key ids: one secret for every purpose, the purpose as a prefix. */
const legacyMac = (master: Buffer, purpose: string, message: string): string => hmac(master, `${purpose}\u0000${message}`);

const sameMac = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** What a valid bot token says: the run of the bot it was issued for, and until when it holds. */
export interface BotTokenClaims {
  readonly runId: string;
  readonly expiresAtSeconds: number;
}

const BOT_TOKEN_VERSION = 'bt1';
const RUN_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Stateless credentials, each signed by the current key of its own purpose and naming that key
 * (`<key id>.<mac>`), so that a previous key still verifies what it signed until it is retired:
 * - a bot's token proves which bot and which run of it it is, until it expires;
 * - a signed URL proves the service handed out that link before it expires;
 * - a calendar channel token proves a push notice comes from a channel the service opened;
 * - a sign-in ticket proves the service handed a signed-in bot its one-time credential for our identity provider.
 * Artifact links and channel tokens signed before key ids (no `.`) are still accepted under any key of
 * the ring (channels live for days); bot tokens of that time are not (they were bound to nothing).
 */
export class Signer {
  constructor(private readonly keys: ServiceKeys) {}

  private sign(purpose: KeyPurpose, message: string): string {
    const key = this.keys.current;
    return `${key.id}.${hmac(key.keyFor(purpose), message)}`;
  }

  /** Whether `signature` is `<key id>.<mac>` of a key of the ring, or (`legacyPurpose`) a mac from before key ids. */
  private verify(purpose: KeyPurpose, message: string, signature: string, legacyPurpose: string | null): boolean {
    const dot = signature.indexOf('.');
    if (dot < 0) {
      return legacyPurpose !== null && this.keys.all.some((k: ServiceKey) => sameMac(legacyMac(k.legacyMaster, legacyPurpose, message), signature));
    }
    const key = this.keys.withId(signature.slice(0, dot));
    return key !== null && sameMac(hmac(key.keyFor(purpose), message), signature.slice(dot + 1));
  }

  botToken(botId: string, runId: string, expiresAtSeconds: number): string {
    if (!RUN_ID.test(runId)) throw new Error(`not a run id: ${runId}`);
    return `${BOT_TOKEN_VERSION}.${runId}.${expiresAtSeconds}.${this.sign('bot-token', `${botId}\u0000${runId}\u0000${expiresAtSeconds}`)}`;
  }

  /** The claims of a token signed for this bot by a key of the ring; null for anything else. Expiry is the caller's. */
  botTokenClaims(botId: string, token: string): BotTokenClaims | null {
    const [version, runId, expires, keyId, mac, ...rest] = token.split('.');
    if (version !== BOT_TOKEN_VERSION || rest.length > 0 || !runId || !RUN_ID.test(runId) || !expires || !/^\d{1,12}$/.test(expires) || !keyId || !mac) return null;
    const expiresAtSeconds = Number(expires);
    return this.verify('bot-token', `${botId}\u0000${runId}\u0000${expiresAtSeconds}`, `${keyId}.${mac}`, null) ? { runId, expiresAtSeconds } : null;
  }

  /**
   * The secret a calendar provider presents with every push notice of one of our channels (Google's
   * channel token, Graph's clientState): derived from the channel id, so nothing needs storing to check it.
   */
  calendarChannelToken(channelId: string): string {
    return this.sign('calendar-channel', channelId);
  }

  isCalendarChannelToken(channelId: string, token: string): boolean {
    return this.verify('calendar-channel', channelId, token, 'calendar-channel');
  }

  signArtifact(botId: string, key: string, expiresAtSeconds: number): string {
    return this.sign('artifact-link', `${botId}/${key}@${expiresAtSeconds}`);
  }

  isArtifactSignature(botId: string, key: string, expiresAtSeconds: number, signature: string): boolean {
    return this.verify('artifact-link', `${botId}/${key}@${expiresAtSeconds}`, signature, 'artifact');
  }

  /** A one-time sign-in ticket's claims (sign-in-tickets.ts), signed under the key of its own purpose. */
  signSignInTicket(payload: string): string {
    return this.sign('sign-in-ticket', payload);
  }

  isSignInTicketSignature(payload: string, signature: string): boolean {
    return this.verify('sign-in-ticket', payload, signature, null);
  }
}
