/**
 * The bot's connections to what a customer names (bot images, streaming sockets, the customer's bucket)
 * follow the service's production address policy unless the service allowed private addresses for this
 * bot (development, tests): the address the socket really connects to must be public (a lookup hook on
 * the socket, so a name that resolves elsewhere after the service checked it gains nothing), and a literal
 * address is checked before any connection. What goes wrong is told in words that reveal nothing about the
 * hosts behind (no address, port or system error text): those reach the customer in the bot's details,
 * its webhooks and its log artifact.
 */
import type { LookupFunction } from 'node:net';
import { publicOnlyLookup, refusedLiteralAddress } from '../../contract/net/public-only-lookup';

/** Socket options for a connection to `host`; throws when `host` is a literal address the policy refuses. */
export const socketOptionsFor = (host: string, publicOnly: boolean): { lookup?: LookupFunction } => {
  if (!publicOnly) return {};
  const refused = refusedLiteralAddress(host);
  if (refused) throw refused;
  return { lookup: publicOnlyLookup as LookupFunction };
};

/** An error whose message the bot wrote itself: safe to show as it is. */
export class CustomerFacingError extends Error {}

const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$)/;

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/** What went wrong with a customer's endpoint, for the customer. */
export const customerFacingReason = (err: unknown): string => {
  if (err instanceof CustomerFacingError) return err.message;
  const code = codeOf(err);
  if (code === 'EADDRNOTPUBLIC') return 'its address is not a public one';
  if (UNRESOLVED.has(code)) return 'its host name could not be resolved';
  if (TLS.test(code)) return 'its TLS certificate is not trusted or the TLS handshake failed';
  if (code === 'ETIMEDOUT') return 'it did not answer in time';
  if ((err as Error | null)?.name === 'AbortError' || code === 'ABORT_ERR') return 'the request was given up';
  return 'the connection failed';
};
