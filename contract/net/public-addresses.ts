import { BlockList, isIP } from 'node:net';

/**
 * The one list of addresses that are not public, for every connection the service or its bots make to a
 * customer's URL in production (webhooks, callbacks, storage endpoints, bot images, streaming sockets):
 * private, loopback, link-local, shared, documentation, benchmarking, multicast and reserved networks, and
 * every IPv6 range that carries an IPv4 address a router would unwrap (NAT64, 6to4, Teredo,
 * IPv4-compatible), so that no IPv4 network barred here comes back in IPv6 clothing. IPv4-mapped addresses
 * (`::ffff:a00:1`, `::ffff:10.0.0.1`) are judged by the IPv4 rules (BlockList does so for the hex form).
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // unspecified, loopback and IPv4-compatible (deprecated, ::a.b.c.d)
  ['::', 96],
  // NAT64: well-known and local-use prefixes
  ['64:ff9b::', 96], ['64:ff9b:1::', 48],
  ['100::', 64], ['2001::', 32], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
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
