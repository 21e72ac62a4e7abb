import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { redactSealed, SecretBox } from '../../src/adapters/crypto/secret-box';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';

describe('secret box (AES-256-GCM for write-only secrets)', () => {
  const box = new SecretBox(new ServiceKeys([randomBytes(32)]));

  it('round-trips a secret and never stores it in the clear', () => {
    const sealed = box.seal('provider-key-123');
    assert.ok(!sealed.sealed.includes('provider-key-123'));
    assert.notEqual(box.seal('provider-key-123').sealed, sealed.sealed, 'a fresh nonce every time');
    assert.equal(box.open(sealed), 'provider-key-123');
  });

  it('refuses a tampered ciphertext and another service’s key', () => {
    const sealed = box.seal('x');
    const parts = sealed.sealed.split('.');
    const ciphertext = Buffer.from(parts[4]!, 'base64url'); // v2.<key id>.<iv>.<tag>.<ciphertext>
    ciphertext[0] ^= 0x01; // a flipped bit is always a change (a fixed replacement byte would match 1 time in 256)
    parts[4] = ciphertext.toString('base64url');
    assert.throws(() => box.open({ sealed: parts.join('.') }));
    assert.throws(() => new SecretBox(new ServiceKeys([randomBytes(32)])).open(sealed));
  });

  it('redacts sealed values anywhere in stored data for display, and leaves the rest', () => {
    const stored = {
      bot_name: 'n',
      config: { transcription: { provider: 'p', api_key: box.seal('k1') }, vc: { obf_token: box.seal('t1'), zak_token_url: null } },
      created_by: { key_id: 'key-1', api_key: box.seal('mbs_secret') },
      list: [box.seal('x'), 'plain'],
    };
    assert.deepEqual(redactSealed(stored), {
      bot_name: 'n',
      config: { transcription: { provider: 'p', api_key: '[encrypted]' }, vc: { obf_token: '[encrypted]', zak_token_url: null } },
      created_by: { key_id: 'key-1', api_key: '[encrypted]' },
      list: ['[encrypted]', 'plain'],
    });
    assert.equal(box.open(stored.config.vc.obf_token), 't1');
  });
});
