/**
 * The vc fields of the three ways a bot is asked for (v2 `vc_config`, legacy `vc_*`, a calendar event's
 * `bot_param` with `vc_access_token_url`) in the domain's terms: one OBF source, the ZAK URL, the caller's
 * own SDK credentials sealed; the combinations refused with 400.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as E from 'fp-ts/Either';
import { ServiceKeys } from '../../../src/adapters/signing/service-keys';
import { SecretBox } from '../../../src/adapters/crypto/secret-box';
import { botDefinitionOfParam, sealBotParam } from '../../../src/http/codecs/calendar-bot-param';
import { decodeCreateBotRequest } from '../../../src/http/codecs/create-bot-request';
import { botConfigFromLegacyRequest } from '../../../src/http/codecs/legacy-bot-config';
import { decodeLegacyCreateBotRequest } from '../../../src/http/codecs/legacy-create-bot-request';
import { botConfigFromV2Request } from '../../../src/http/codecs/v2-bot-config';

const box = new SecretBox(new ServiceKeys([randomBytes(32)]));
const seal = (plain: string) => box.seal(plain);
const ZOOM = 'https://zoom.us/j/1234567890?pwd=abc';
const MEET = 'https://meet.google.com/abc-defg-hij';
const making = { open: (s: { sealed: string }) => box.open(s), seal, sandboxHosts: false };

const v2 = (vc_config: Record<string, unknown>) => {
  const decoded = decodeCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', vc_config }, { sandboxHosts: false });
  if (E.isLeft(decoded)) assert.fail(decoded.left.message);
  return botConfigFromV2Request(decoded.right, seal).vc;
};

const legacy = (fields: Record<string, unknown>) => {
  const decoded = decodeLegacyCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', ...fields }, { sandboxHosts: false });
  if (E.isLeft(decoded)) assert.fail(decoded.left.message);
  return botConfigFromLegacyRequest(decoded.right, seal);
};

const calendar = (fields: Record<string, unknown>, meetingUrl = ZOOM) => botDefinitionOfParam(sealBotParam('legacy', { bot_name: 'N', ...fields }, seal), meetingUrl, making);

describe('vc options of a bot request in the domain’s terms', () => {
  it('v2: each OBF source becomes the one source; the token sealed; the ZAK URL alone', () => {
    assert.deepEqual(v2({ credential_id: '5e0b5b0c-4c67-4a0e-9e1c-0a51f1d7a001' })?.obf, { kind: 'credential', credential_id: '5e0b5b0c-4c67-4a0e-9e1c-0a51f1d7a001' });
    assert.deepEqual(v2({ credential_user_id: 'u1' })?.obf, { kind: 'credential_user', vc_user_id: 'u1' });
    assert.deepEqual(v2({ obf_token_url: 'https://t.example/obf' })?.obf, { kind: 'token_url', url: 'https://t.example/obf' });
    const token = v2({ obf_token: 'secret-obf' })?.obf;
    assert.equal(token?.kind, 'token');
    assert.equal(token?.kind === 'token' && box.open(token.token), 'secret-obf');
    assert.ok(token?.kind === 'token' && !token.token.sealed.includes('secret-obf'));
    assert.deepEqual(v2({ zak_token_url: 'https://t.example/zak' }), { obf: null, zak_token_url: 'https://t.example/zak', sdk: null });
  });

  it('legacy: the OBF fields and the own SDK credentials (password sealed); an OBF bot waits 200 s unless told otherwise', () => {
    const config = legacy({ vc_obf_token_user_id: 'u1', vc_sdk_id: 'k', vc_sdk_pwd: 'p' });
    assert.deepEqual(config.vc?.obf, { kind: 'credential_user', vc_user_id: 'u1' });
    assert.equal(config.vc?.sdk?.sdk_id, 'k');
    assert.equal(box.open(config.vc!.sdk!.sdk_secret), 'p');
    assert.equal(config.timeouts.waiting_room_timeout, 200);
    assert.equal(legacy({ vc_sdk_id: 'k', vc_sdk_pwd: 'p' }).timeouts.waiting_room_timeout, 600, 'no OBF source: the usual default');
    assert.equal(legacy({}).vc, null);
  });

  it('legacy: vc_access_token_url (the official client sends it) is the ZAK URL, with the own SDK credentials or alone', () => {
    assert.deepEqual(legacy({ vc_access_token_url: 'https://t.example/zak' }).vc, { obf: null, zak_token_url: 'https://t.example/zak', sdk: null });
    const withSdk = legacy({ vc_access_token_url: 'https://t.example/zak', vc_sdk_id: 'k', vc_sdk_pwd: 'p' }).vc;
    assert.equal(withSdk?.zak_token_url, 'https://t.example/zak');
    assert.equal(withSdk?.sdk?.sdk_id, 'k');
    assert.equal(legacy({ vc_obf_token_url: 'https://t.example/o' }).vc?.zak_token_url, null);
  });

  it('a calendar event’s bot_param: vc_access_token_url is the ZAK URL, the vc_* fields as POST /bots takes them', () => {
    const zak = calendar({ vc_access_token_url: 'https://t.example/zak', vc_sdk_id: 'k', vc_sdk_pwd: 'p' });
    assert.ok(E.isRight(zak), E.isLeft(zak) ? zak.left.message : '');
    if (E.isLeft(zak)) return;
    assert.equal(zak.right.config.vc?.zak_token_url, 'https://t.example/zak');
    assert.equal(zak.right.config.vc?.sdk?.sdk_id, 'k');
    const obf = calendar({ vc_obf_token: 'from-the-calendar' });
    assert.ok(E.isRight(obf) && obf.right.config.vc?.obf?.kind === 'token' && box.open(obf.right.config.vc.obf.token) === 'from-the-calendar');
  });

  const refusals: [string, () => E.Either<{ message: string }, unknown>, RegExp][] = [
    ['v2: an OBF source and the ZAK URL', () => decodeCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', vc_config: { obf_token_url: 'https://t.example/o', zak_token_url: 'https://t.example/z' } }, { sandboxHosts: false }), /^body\/vc_config\/zak_token_url must NOT be given with obf_token_url/],
    ['v2: two OBF sources', () => decodeCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', vc_config: { credential_id: '5e0b5b0c-4c67-4a0e-9e1c-0a51f1d7a001', credential_user_id: 'u' } }, { sandboxHosts: false }), /must NOT name more than one of/],
    ['legacy: two OBF sources', () => decodeLegacyCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', vc_obf_token_user_id: 'u', vc_obf_token: 't' }, { sandboxHosts: false }), /must NOT be given with/],
    ['legacy: the SDK id without its password', () => decodeLegacyCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', vc_sdk_id: 'k' }, { sandboxHosts: false }), /SET_VC_ID_AND_PWD_TOGETHER/],
    ['legacy: an OBF source and the ZAK URL', () => decodeLegacyCreateBotRequest({ meeting_url: ZOOM, bot_name: 'N', vc_obf_token: 't', vc_access_token_url: 'https://t.example/z' }, { sandboxHosts: false }), /^body\/vc_access_token_url must NOT be given with vc_obf_token: the platform joins with an OBF token or a ZAK, never both/],
    ['legacy: the ZAK URL on another platform', () => decodeLegacyCreateBotRequest({ meeting_url: MEET, bot_name: 'N', vc_access_token_url: 'https://t.example/z' }, { sandboxHosts: false }), /^body\/vc_access_token_url is only allowed for vc meetings/],
    ['calendar: an OBF source and the ZAK URL', () => calendar({ vc_obf_token_url: 'https://t.example/o', vc_access_token_url: 'https://t.example/z' }), /^body\/vc_access_token_url must NOT be given with vc_obf_token_url/],
    ['calendar: the ZAK URL on another platform', () => calendar({ vc_access_token_url: 'https://t.example/z' }, MEET), /^body\/vc_access_token_url is only allowed for vc meetings/],
  ];
  for (const [what, decide, message] of refusals) {
    it(`refuses ${what} with 400 naming the field`, () => {
      const result = decide();
      assert.ok(E.isLeft(result), 'refused');
      if (E.isLeft(result)) assert.match(result.left.message, message);
    });
  }
});
