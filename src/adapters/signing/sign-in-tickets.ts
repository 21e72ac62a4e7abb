import { createHmac, timingSafeEqual } from 'node:crypto';

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
 * The short-lived credential a bot presents at our SAML identity provider: its claims and an HMAC keyed
 * by the service secret (any instance can check it; nothing stored). One-time use is the login decider's
 * (one assertion per session); this only proves the service handed it to that bot, and when it expires.
 */
export class SignInTickets {
  constructor(private readonly secret: Buffer) {}

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(`sign-in-ticket\u0000${payload}`).digest('base64url');
  }

  mint(claims: TicketClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The claims of a genuine ticket not yet expired; null for anything else. */
  read(ticket: string, nowMs: number): TicketClaims | null {
    const [payload, mac, ...rest] = ticket.trim().split('.');
    if (!payload || !mac || rest.length > 0) return null;
    const expected = Buffer.from(this.mac(payload));
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
