import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

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

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b:1::', 48], ['100::', 64],
] as const) nonPublic.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** An IPv4 address written inside IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it is. */
const judged = (address: string): { address: string; family: 'ipv4' | 'ipv6' } => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
};

export const isPublicAddress = (address: string): boolean => {
  const a = judged(address);
  return !nonPublic.check(a.address, a.family);
};

export const isLoopbackAddress = (address: string): boolean => {
  const a = judged(address);
  return loopback.check(a.address, a.family);
};

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
