import assert from 'node:assert/strict';
import { publicOnlyLookup } from '../../contract/net/public-only-lookup';

describe('public-only lookup (teams’ storage endpoints in production)', () => {
  it('a name that resolves to loopback is refused at connection time', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicOnlyLookup('localhost', {}, (e) => resolve(e)));
    assert.equal(error?.code, 'EADDRNOTPUBLIC');
    assert.match(error?.message ?? '', /localhost resolves to .* which is not a public address/);
  });

  it('a literal public address passes, in the shape the caller asked for', async () => {
    const one = await new Promise<unknown[]>((resolve) => publicOnlyLookup('8.8.8.8', {}, (...args) => resolve(args)));
    assert.deepEqual(one, [null, '8.8.8.8', 4]);
    const all = await new Promise<unknown[]>((resolve) => publicOnlyLookup('8.8.8.8', { all: true }, (...args) => resolve(args)));
    assert.deepEqual(all, [null, [{ address: '8.8.8.8', family: 4 }]]);
  });
});
