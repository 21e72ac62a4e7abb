import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServiceKeys } from './service-keys';

/** What a one-time sign-in ticket stands for: this bot, signing in with this login of this workspace, until then. */
export interface TicketClaims {
  readonly bot_id: string;
  readonly credential_id: string;
  readonly workspace_id: string;
  /** unique per ticket; recorded with the assertion it bought */
  readonly ticket_id: string;
  readonly expires_at_ms: number;
}

/** A bot has this long from asking for its sign-in to presenting the ticket at our identity provider. */
export const TICKET_LIFETIME_MS = 5 * 60 * 1000;

/**
 * The short-lived credential a bot presents at our SAML identity provider: its claims and an HMAC under the
 * current service key of its own purpose, naming that key (`<claims>.<key id>.<mac>`), so any instance can
 * check it and nothing is stored. One-time use is the login decider's (one assertion per session); this only
 * proves the service handed it to that bot, and when it expires.
 */
export class SignInTickets {
  constructor(private readonly keys: ServiceKeys) {}

  private static mac(key: Buffer, payload: string): string {
    return createHmac('sha256', key).update(payload).digest('base64url');
  }

  mint(claims: TicketClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const key = this.keys.current;
    return `${payload}.${key.id}.${SignInTickets.mac(key.keyFor('sign-in-ticket'), payload)}`;
  }

  /** The claims of a genuine ticket not yet expired; null for anything else. */
  read(ticket: string, nowMs: number): TicketClaims | null {
    const [payload, keyId, mac, ...rest] = ticket.trim().split('.');
    if (!payload || !keyId || !mac || rest.length > 0) return null;
    const key = this.keys.withId(keyId);
    if (key === null) return null;
    const expected = Buffer.from(SignInTickets.mac(key.keyFor('sign-in-ticket'), payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let claims: TicketClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TicketClaims;
    } catch {
      return null;
    }
    if (typeof claims.expires_at_ms !== 'number' || claims.expires_at_ms <= nowMs) return null;
    return claims;
  }
}
