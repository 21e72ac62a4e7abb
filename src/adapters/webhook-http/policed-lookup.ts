import type { LookupFunction } from 'node:net';
import { addressProblem, type Resolve, type TargetPolicy } from './target-policy';

/** The policy refused the address a socket was about to connect to. */
export class RefusedTarget extends Error {
  readonly code = 'ERR_TARGET_REFUSED';
}

/**
 * A socket `lookup` that resolves the name and refuses an address the policy forbids, for every address
 * the socket may try: the check is on the address really connected to, so a name that resolved to a
 * public address earlier and to a private one now is refused now (DNS rebinding gains nothing).
 */
export const policedLookup = (url: URL, policy: TargetPolicy, resolve: Resolve): LookupFunction => (hostname, options, callback) => {
  resolve(hostname)
    .then((found) => {
      const allowed = found.filter(({ address }) => addressProblem(url, address, policy) === null);
      if (allowed.length === 0) {
        const why = found.length > 0 ? addressProblem(url, found[0]!.address, policy) : `${hostname} has no address`;
        throw new RefusedTarget(`refused: the URL ${why}`);
      }
      const wanted = options.family === 4 || options.family === 6 ? allowed.filter((a) => a.family === options.family) : allowed;
      if (wanted.length === 0) throw new RefusedTarget(`refused: ${hostname} has no allowed IPv${options.family} address`);
      if (options.all) (callback as (err: Error | null, addresses: { address: string; family: number }[]) => void)(null, [...wanted]);
      else callback(null, wanted[0]!.address, wanted[0]!.family);
    })
    .catch((err: Error) => callback(err as NodeJS.ErrnoException, '', 0));
};
