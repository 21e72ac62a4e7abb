import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { decodeCreateBotRequest } from '../../../src/http/codecs/create-bot-request';
import { mtBody, tmBody, vcBody } from './create-bot-helpers';

const refusal = (body: unknown) => {
  const result = decodeCreateBotRequest(body, { sandboxHosts: false });
  if (E.isRight(result)) assert.fail('expected a refusal, got acceptance');
  return result.left;
};

describe('an option the service does not deliver yet is refused by name, never accepted and ignored', () => {
  const cases: Array<[string, unknown, string]> = [
    ['tm_config', tmBody({ tm_config: { fallback: 'anonymous' } }), 'tm_config'],
    ['mt_config', mtBody({ mt_config: { fallback: 'anonymous' } }), 'mt_config'],
  ];
  for (const [what, body, field] of cases) {
    it(`${what}: 400 FST_ERR_OPTION_NOT_AVAILABLE naming body/${field}`, () => {
      const error = refusal(body);
      assert.equal(error.status, 400);
      assert.equal(error.code, 'FST_ERR_OPTION_NOT_AVAILABLE');
      assert.match(error.message, new RegExp(`^body/${field} is not available yet: `));
      assert.equal(error.details, error.message);
    });
  }

  it('the defaults and explicit "off" values ask for nothing and are accepted', () => {
    const off = vcBody({ bot_image_config: null, streaming_enabled: false, transcription_enabled: false, vc_config: null, recording_mode: 'speaker_view' });
    assert.ok(E.isRight(decodeCreateBotRequest(off, { sandboxHosts: false })));
  });

  it('vc OBF and ZAK tokens are delivered: vc_config is accepted', () => {
    assert.ok(E.isRight(decodeCreateBotRequest(vcBody({ vc_config: { obf_token_url: 'https://tokens.example/obf' } }), { sandboxHosts: false })));
    assert.ok(E.isRight(decodeCreateBotRequest(vcBody({ vc_config: { zak_token_url: 'https://tokens.example/zak' } }), { sandboxHosts: false })));
  });

  it('streaming and the bot image are delivered: accepted', () => {
    const body = vcBody({
      streaming_enabled: true,
      streaming_config: { output_url: 'wss://x.example/out', input_url: 'ws://x.example/in', audio_frequency: 24000 },
      bot_image: ['https://cdn.example/a.png', 'https://cdn.example/b.webp'],
      bot_image_config: { mode: 'cycle', interval_seconds: 5 },
    });
    assert.ok(E.isRight(decodeCreateBotRequest(body, { sandboxHosts: false })));
  });

  it('transcription is delivered: the Default provider by itself, a hosted one with its key (the name as the service writes it)', () => {
    assert.ok(E.isRight(decodeCreateBotRequest(vcBody({ transcription_enabled: true }), { sandboxHosts: false })));
    const hosted = decodeCreateBotRequest(vcBody({ transcription_enabled: true, transcription_config: { provider: 'gladia', api_key: 'k' } }), { sandboxHosts: false });
    assert.equal(E.isRight(hosted) && hosted.right.transcription_config?.provider, 'Gladia');
  });

  it('gallery_view is accepted on every platform: every driver sets the layout it asks for', () => {
    for (const body of [vcBody({ recording_mode: 'gallery_view' }), tmBody({ recording_mode: 'gallery_view' }), mtBody({ recording_mode: 'gallery_view' })]) {
      assert.ok(E.isRight(decodeCreateBotRequest(body, { sandboxHosts: false })), JSON.stringify(body));
    }
  });

  it('what the service delivers is accepted: callback, entry message, timeouts, audio_only, ignored names, extra', () => {
    const body = vcBody({
      callback_enabled: true,
      callback_config: { url: 'https://hooks.example/cb', secret: 's' },
      entry_message: 'Hello',
      timeout_config: { silence_timeout: 60 },
      recording_mode: 'audio_only',
      ignored_participant_names: ['Other Bot'],
      extra: { deal: 1 },
      allow_multiple_bots: false,
    });
    assert.ok(E.isRight(decodeCreateBotRequest(body, { sandboxHosts: false })));
  });

  it('a malformed value is still reported as malformed before its availability', () => {
    const error = refusal(vcBody({ transcription_enabled: 'yes' }));
    assert.equal(error.code, 'FST_ERR_VALIDATION');
    assert.equal(error.details, 'body/transcription_enabled must be boolean');
  });
});
