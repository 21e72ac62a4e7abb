import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SecretBox, sealingKeyIdOf } from '../../src/adapters/crypto/secret-box';
import { loadServiceKeys } from '../../src/adapters/signing/load-service-keys';
import { ServiceKeys, type KeyPurpose } from '../../src/adapters/signing/service-keys';
import { SignInTickets } from '../../src/adapters/signing/sign-in-tickets';
import { Signer } from '../../src/adapters/signing/signer';

/** Values the service made before issue 18 (one secret for everything, no key ids): they must stay usable. */
const before = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/keys/before-issue-18.json'), 'utf8'));
const secret = () => randomBytes(32);

describe('service keys: one key per purpose, named by id, rotated without losing what was sealed', () => {
  const oldSecret = Buffer.from(before.service_secret, 'utf8');

  describe('values made before key ids (fixture)', () => {
    for (const [name, ring] of [
      ['the old secret as the current key', () => new ServiceKeys([oldSecret])],
      ['the old secret kept as a previous key after a rotation', () => new ServiceKeys([secret(), oldSecret])],
    ] as const) {
      it(`open and verify with ${name}`, () => {
        const keys = ring();
        assert.equal(new SecretBox(keys).open(before.sealed.value), before.sealed.plain);
        const link = before.artifact_link;
        assert.equal(new Signer(keys).isArtifactSignature(link.bot_id, link.key, link.expires, link.signature), true);
        assert.equal(new Signer(keys).isCalendarChannelToken(before.calendar_channel.channel_id, before.calendar_channel.token), true);
      });
    }

    it('do not open or verify under another service’s keys', () => {
      const keys = new ServiceKeys([secret()]);
      assert.throws(() => new SecretBox(keys).open(before.sealed.value), /not a sealed secret of this service/);
      assert.equal(new Signer(keys).isCalendarChannelToken(before.calendar_channel.channel_id, before.calendar_channel.token), false);
    });

    it('a bot token of that time (bound to no run and no expiry) is no token any more', () => {
      assert.equal(new Signer(new ServiceKeys([oldSecret])).botTokenClaims(before.bot_token.bot_id, before.bot_token.token), null);
    });
  });

  it('every sealed value and every signature names the key that made it', () => {
    const keys = new ServiceKeys([secret()]);
    const id = keys.current.id;
    assert.match(id, /^[A-Za-z0-9_-]{8}$/);
    const sealed = new SecretBox(keys).seal('x');
    assert.match(sealed.sealed, new RegExp(`^v2\\.${id}\\.`));
    assert.equal(sealingKeyIdOf(sealed), id);
    assert.equal(sealingKeyIdOf(before.sealed.value), 'legacy');
    const signer = new Signer(keys);
    assert.ok(signer.signArtifact('b', 'k', 1).startsWith(`${id}.`));
    assert.ok(signer.calendarChannelToken('c').startsWith(`${id}.`));
    assert.match(signer.botToken('b', 'run-1', 2), new RegExp(`^bt1\\.run-1\\.2\\.${id}\\.`));
  });

  it('a rotation: the new key seals and signs, the old one still opens and verifies until it is retired', () => {
    const [a, b] = [secret(), secret()];
    const beforeRotation = new ServiceKeys([a]);
    const sealedUnderA = new SecretBox(beforeRotation).seal('webhook secret');
    const linkUnderA = new Signer(beforeRotation).signArtifact('bot', 'recording.mp4', 99);
    const tokenUnderA = new Signer(beforeRotation).botToken('bot', 'run-1', 99);

    const rotated = new ServiceKeys([b, a]);
    assert.equal(new SecretBox(rotated).open(sealedUnderA), 'webhook secret');
    assert.equal(new Signer(rotated).isArtifactSignature('bot', 'recording.mp4', 99, linkUnderA), true);
    assert.deepEqual(new Signer(rotated).botTokenClaims('bot', tokenUnderA), { runId: 'run-1', expiresAtSeconds: 99 });
    assert.equal(sealingKeyIdOf(new SecretBox(rotated).seal('new')), rotated.current.id);
    assert.notEqual(rotated.current.id, beforeRotation.current.id);

    const retired = new ServiceKeys([b]);
    assert.throws(() => new SecretBox(retired).open(sealedUnderA), new RegExp(`sealed under key ${beforeRotation.current.id}, which this service does not have`));
    assert.equal(new Signer(retired).isArtifactSignature('bot', 'recording.mp4', 99, linkUnderA), false);
    assert.equal(new Signer(retired).botTokenClaims('bot', tokenUnderA), null);
  });

  it('each purpose has its own key: no value made for one passes for another', () => {
    const keys = new ServiceKeys([secret()]);
    const purposes: KeyPurpose[] = ['seal', 'bot-token', 'artifact-link', 'calendar-channel', 'sign-in-ticket'];
    const derived = purposes.map((p) => keys.current.keyFor(p).toString('hex'));
    assert.equal(new Set([...derived, keys.current.legacyMaster.toString('hex')]).size, purposes.length + 1);
    const signer = new Signer(keys);
    const linkSignature = signer.signArtifact('bot', 'key', 7);
    assert.equal(signer.isCalendarChannelToken('bot/key@7', linkSignature), false, 'a link signature is no channel token for the same text');
    assert.equal(signer.isArtifactSignature('bot', 'key', 7, linkSignature), true);
  });

  it('a sign-in ticket names its key: a previous key still reads it, a retired one does not, a changed claim is refused', () => {
    const [a, b] = [secret(), secret()];
    const claims = { bot_id: 'bot', credential_id: 'login', workspace_id: 'ws', ticket_id: 't-1', expires_at_ms: 5000 };
    const ticket = new SignInTickets(new Signer(new ServiceKeys([a]))).mint(claims);
    assert.equal(ticket.split('.')[1], new ServiceKeys([a]).current.id);
    assert.deepEqual(new SignInTickets(new Signer(new ServiceKeys([b, a]))).read(ticket, 1000), claims);
    assert.equal(new SignInTickets(new Signer(new ServiceKeys([b]))).read(ticket, 1000), null);
    assert.equal(new SignInTickets(new Signer(new ServiceKeys([a]))).read(ticket, 5000), null, 'expired');
    const [payload, keyId, mac] = ticket.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, bot_id: 'other' })).toString('base64url');
    assert.notEqual(forged, payload);
    assert.equal(new SignInTickets(new Signer(new ServiceKeys([a]))).read(`${forged}.${keyId}.${mac}`, 1000), null);
  });

  it('a bot token is for its bot only, and any change to it is refused', () => {
    const signer = new Signer(new ServiceKeys([secret()]));
    const token = signer.botToken('bot-a', 'run-1', 1000);
    assert.equal(signer.botTokenClaims('bot-b', token), null);
    assert.equal(signer.botTokenClaims('bot-a', token.replace('.1000.', '.9999.')), null, 'a later expiry');
    assert.equal(signer.botTokenClaims('bot-a', token.replace('run-1', 'run-2')), null, 'another run');
  });

  it('GCM tags are 16 bytes: a value whose tag was cut short is refused', () => {
    const box = new SecretBox(new ServiceKeys([secret()]));
    const parts = box.seal('provider-key').sealed.split('.');
    for (const bytes of [4, 12, 15]) {
      const cut = [...parts.slice(0, 3), Buffer.from(parts[3]!, 'base64url').subarray(0, bytes).toString('base64url'), parts[4]].join('.');
      assert.throws(() => box.open({ sealed: cut }), /not a sealed secret of this service/, `${bytes}-byte tag`);
    }
    const legacy = before.sealed.value.sealed.split('.');
    const cutLegacy = [legacy[0], legacy[1], Buffer.from(legacy[2], 'base64url').subarray(0, 4).toString('base64url'), legacy[3]].join('.');
    assert.throws(() => new SecretBox(new ServiceKeys([oldSecret])).open({ sealed: cutLegacy }), /not a sealed secret/, 'nor in the old format');
  });

  it('the current secret is at least 32 bytes; a previous one may be shorter (it only reads what it made)', () => {
    assert.throws(() => new ServiceKeys([Buffer.alloc(31, 1)]), /at least 32 bytes/);
    assert.doesNotThrow(() => new ServiceKeys([Buffer.alloc(32, 1), Buffer.from('old-short')]));
  });
});

describe('where the service secrets are (SERVICE_SECRET, SERVICE_SECRET_FILE)', () => {
  let dir: string;
  let dataDir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'service-keys-'));
    dataDir = path.join(dir, 'data');
    mkdirSync(dataDir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a SERVICE_SECRET shorter than 32 bytes, and both settings at once', () => {
    assert.throws(() => loadServiceKeys({ serviceSecret: 'secret' }, dataDir), /SERVICE_SECRET must be at least 32 bytes long/);
    assert.throws(() => loadServiceKeys({ serviceSecret: 'x'.repeat(32), serviceSecretFile: path.join(dir, 'k') }, dataDir), /both set/);
    assert.throws(() => loadServiceKeys({}, dataDir), /no service secret: set SERVICE_SECRET or SERVICE_SECRET_FILE/);
  });

  it('SERVICE_SECRET with SERVICE_PREVIOUS_SECRETS: the first seals, the others still open', () => {
    const [a, b] = ['a'.repeat(40), 'b'.repeat(40)];
    const sealed = new SecretBox(loadServiceKeys({ serviceSecret: a }, dataDir).keys).seal('s');
    const { keys } = loadServiceKeys({ serviceSecret: b, previousServiceSecrets: [a] }, dataDir);
    assert.equal(new SecretBox(keys).open(sealed), 's');
    assert.equal(keys.current.id, new ServiceKeys([Buffer.from(b)]).current.id);
  });

  it('a key file outside DATA_DIR is made once (folder 0700, file 0600) and read again; its first line is the current key', () => {
    const file = path.join(dir, 'config', 'meeting-bot-service', 'service-secret');
    const first = loadServiceKeys({ serviceSecretFile: file }, dataDir);
    assert.match(first.warnings.join('\n'), /made a new service secret in .*: keep a copy/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    const again = loadServiceKeys({ serviceSecretFile: file }, dataDir);
    assert.deepEqual(again.warnings, []);
    assert.equal(again.keys.current.id, first.keys.current.id);

    const newer = 'n'.repeat(64);
    writeFileSync(file, `# rotated\n${newer}\n${readFileSync(file, 'utf8')}`, { mode: 0o600 });
    const rotated = loadServiceKeys({ serviceSecretFile: file }, dataDir).keys;
    assert.equal(rotated.current.id, new ServiceKeys([Buffer.from(newer)]).current.id);
    assert.ok(rotated.withId(first.keys.current.id), 'the old key is still in the ring');
  });

  it('says so when the key file is inside DATA_DIR or readable by others', () => {
    const file = path.join(dataDir, 'keys');
    writeFileSync(file, `${'k'.repeat(64)}\n`, { mode: 0o644 });
    const { warnings } = loadServiceKeys({ serviceSecretFile: file }, dataDir);
    assert.match(warnings.join('\n'), /inside DATA_DIR/);
    assert.match(warnings.join('\n'), /readable by other users/);
  });

  it('the secret an earlier version made in DATA_DIR is kept as a previous key (what it sealed still opens), with a warning to move it', () => {
    writeFileSync(path.join(dataDir, 'service-secret'), before.service_secret, { mode: 0o600 });
    const { keys, warnings } = loadServiceKeys({ serviceSecret: 'c'.repeat(64) }, dataDir);
    assert.equal(new SecretBox(keys).open(before.sealed.value), before.sealed.plain);
    assert.notEqual(keys.current.id, new ServiceKeys([Buffer.from(before.service_secret)]).current.id, 'it seals nothing new');
    assert.match(warnings.join('\n'), /service-secret .* is used as a previous key: move it out of DATA_DIR/);
  });
});
