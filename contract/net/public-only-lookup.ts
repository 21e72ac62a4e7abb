import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from './public-addresses';

export class NotPublicAddressError extends Error {
  readonly code = 'EADDRNOTPUBLIC';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'NotPublicAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that may only reach public addresses (teams' storage endpoints in production):
 * the check happens on the address the connection will really use, so a name that resolves differently
 * later (DNS rebinding) gains nothing. A name with any non-public address is refused whole.
 */
export const publicOnlyLookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new NotPublicAddressError(hostname, refused.address), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};

/** A literal IP is never looked up, so `publicOnlyLookup` never sees it: refused here when it is not public. */
export const refusedLiteralAddress = (host: string): NotPublicAddressError | null => {
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(literal) !== 0 && !isPublicAddress(literal) ? new NotPublicAddressError(host, literal) : null;
};
