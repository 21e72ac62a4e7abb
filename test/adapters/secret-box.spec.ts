import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { redactSealed, sealBotSecrets, SecretBox } from '../../src/adapters/crypto/secret-box';

describe('secret box (AES-256-GCM for write-only secrets)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips a secret and never stores it in the clear', () => {
    const sealed = box.seal('provider-key-123');
    assert.ok(!sealed.sealed.includes('provider-key-123'));
    assert.notEqual(box.seal('provider-key-123').sealed, sealed.sealed, 'a fresh nonce every time');
    assert.equal(box.open(sealed), 'provider-key-123');
  });

  it('refuses a tampered ciphertext and another service’s key', () => {
    const sealed = box.seal('x');
    const parts = sealed.sealed.split('.');
    const ciphertext = Buffer.from(parts[3]!, 'base64url');
    ciphertext[0] ^= 0x01; // a flipped bit is always a change (a fixed replacement byte would match 1 time in 256)
    parts[3] = ciphertext.toString('base64url');
    assert.throws(() => box.open({ sealed: parts.join('.') }));
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed));
  });

  it('seals exactly the write-only fields of a creation request and redacts them for display', () => {
    const sealed = sealBotSecrets(box, {
      bot_name: 'n',
      transcription_config: { provider: 'p', api_key: 'k1' },
      callback_config: { url: 'https://x', secret: 's1' },
      vc_config: { obf_token: 't1' },
    });
    const shown = redactSealed(sealed) as Record<string, Record<string, unknown>>;
    assert.deepEqual(shown.transcription_config, { provider: 'p', api_key: '[encrypted]' });
    assert.deepEqual(shown.callback_config, { url: 'https://x', secret: '[encrypted]' });
    assert.deepEqual(shown.vc_config, { obf_token: '[encrypted]' });
    assert.equal(box.open((sealed.vc_config as { obf_token: { sealed: string } }).obf_token), 't1');
  });
});
