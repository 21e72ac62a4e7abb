import assert from 'node:assert/strict';
import { isPublicAddress, publicOnlyLookup } from '../../src/adapters/net/public-address';

describe('public addresses (customer endpoints in production)', () => {
  it('refuses this machine, private networks, link-local and reserved ranges, in IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1', '127.255.0.3', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['8.8.8.8', '172.32.0.1', '52.95.110.1', '2a00:1450:4001:80b::200e', '::ffff:8.8.4.4']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('a name that resolves to loopback is refused at connection time', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicOnlyLookup('localhost', {}, (e) => resolve(e)));
    assert.equal(error?.code, 'EADDRNOTPUBLIC');
    assert.match(error?.message ?? '', /localhost resolves to .* which is not a public address/);
  });
});
