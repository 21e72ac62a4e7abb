import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { isLoopbackAddress, isPublicAddress } from '../../../contract/net/public-addresses';

/**
 * Where webhooks and callbacks may go (DESIGN.md). By default: https only, and never an address of a
 * private, loopback, link-local or otherwise non-public network, checked on the resolved address (at
 * creation and again at send time, on the very address the request connects to). With
 * ALLOW_PRIVATE_WEBHOOK_TARGETS (local development, tests): https anywhere, and plain http to this machine.
 */
export interface TargetPolicy {
  readonly publicHttpsOnly: boolean;
}

export type Resolve = (hostname: string) => Promise<readonly { readonly address: string; readonly family: number }[]>;

export const resolveWithDns: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

const bareHost = (hostname: string): string => hostname.replace(/^\[|\]$/g, '');

/** Why a URL can never be a target under the policy, before any name is resolved; null when it may be. */
export const urlProblem = (raw: string, policy: TargetPolicy): string | null => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a valid URL';
  }
  if (url.username !== '' || url.password !== '') return 'must NOT contain user info';
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'must be an https URL';
  if (policy.publicHttpsOnly) return 'must be an https URL';
  const host = bareHost(url.hostname);
  if (host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host))) return null;
  return 'must be an https URL (plain http is allowed to this machine only)';
};

/** Why an address the URL's host resolved to may not be connected to; null when it may. */
export const addressProblem = (url: URL, address: string, policy: TargetPolicy): string | null => {
  if (policy.publicHttpsOnly && !isPublicAddress(address)) return `resolves to ${address}, which is not a public address`;
  if (url.protocol === 'http:' && !isLoopbackAddress(address)) return `resolves to ${address}: plain http is allowed to this machine only`;
  return null;
};

/** The whole check of a target URL, names resolved: what creation runs (sending checks again). */
export const targetProblem = async (raw: string, policy: TargetPolicy, resolve: Resolve = resolveWithDns): Promise<string | null> => {
  const problem = urlProblem(raw, policy);
  if (problem !== null) return problem;
  const url = new URL(raw);
  const host = bareHost(url.hostname);
  let addresses: readonly { address: string }[];
  try {
    addresses = isIP(host) !== 0 ? [{ address: host }] : await resolve(host);
  } catch (err) {
    return policy.publicHttpsOnly ? `host ${host} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})` : null;
  }
  for (const { address } of addresses) {
    const refused = addressProblem(url, address, policy);
    if (refused !== null) return refused;
  }
  return null;
};
