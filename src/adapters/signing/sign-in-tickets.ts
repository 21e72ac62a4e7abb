import type { Signer } from './signer';

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
 * The short-lived credential a bot presents at our SAML identity provider: its claims and the signer's
 * signature under the current service key of its own purpose, naming that key (`<claims>.<key id>.<mac>`),
 * so any instance can check it and nothing is stored. One-time use is the login decider's (one assertion
 * per session); this only proves the service handed it to that bot, and when it expires.
 */
export class SignInTickets {
  constructor(private readonly signer: Signer) {}

  mint(claims: TicketClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.signer.signSignInTicket(payload)}`;
  }

  /** The claims of a genuine ticket not yet expired; null for anything else. */
  read(ticket: string, nowMs: number): TicketClaims | null {
    const [payload, keyId, mac, ...rest] = ticket.trim().split('.');
    if (!payload || !keyId || !mac || rest.length > 0) return null;
    if (!this.signer.isSignInTicketSignature(payload, `${keyId}.${mac}`)) return null;
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
