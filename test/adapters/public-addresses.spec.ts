import assert from 'node:assert/strict';
import { isPublicAddress } from '../../contract/net/public-addresses';

describe('public addresses (the one list the service and its bots share)', () => {
  it('refuses private, loopback, link-local, metadata and reserved IPv4 networks', () => {
    for (const a of ['10.1.2.3', '127.0.0.1', '169.254.169.254', '172.20.0.1', '192.168.1.1', '100.64.0.1', '0.0.0.0', '192.0.2.1', '224.0.0.1', '255.255.255.255']) {
      assert.equal(isPublicAddress(a), false, a);
    }
  });

  it('refuses every IPv6 form that carries an IPv4 address a router unwraps, and the old site-local range', () => {
    for (const a of [
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '64:ff9b::808:808', // NAT64, even of a public address
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '::a00:1', // IPv4-compatible 10.0.0.1
      '::808:808', // IPv4-compatible, even of a public address
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      'fec0::1', // site-local
      '192.88.99.1', // the 6to4 relay anycast
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '::1',
      'fd00::1',
      'fe80::1',
    ]) {
      assert.equal(isPublicAddress(a), false, a);
    }
  });

  it('lets public addresses through', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) assert.equal(isPublicAddress(a), true, a);
  });
});
