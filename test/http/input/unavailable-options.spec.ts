import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { decodeCreateBotRequest } from '../../../src/http/codecs/create-bot-request';
import { mtBody, tmBody, vcBody } from './create-bot-helpers';

const refusal = (body: unknown) => {
  const result = decodeCreateBotRequest(body, { sandboxHosts: false });
  if (E.isRight(result)) assert.fail('expected a refusal, got acceptance');
  return result.left;
};

describe('the options the service delivers are accepted (none is refused as not available yet any more)', () => {
  it('the defaults and explicit "off" values ask for nothing and are accepted', () => {
    const off = vcBody({ bot_image_config: null, streaming_enabled: false, transcription_enabled: false, vc_config: null, recording_mode: 'speaker_view' });
    assert.ok(E.isRight(decodeCreateBotRequest(off, { sandboxHosts: false })));
  });

  it('signed-in bots are delivered (issue 20): tm_config and mt_config accepted on their platforms', () => {
    assert.ok(E.isRight(decodeCreateBotRequest(tmBody({ tm_config: { email_group: 'pool@contoso.com', fallback: 'anonymous' } }), { sandboxHosts: false })));
    assert.ok(E.isRight(decodeCreateBotRequest(mtBody({ mt_config: { credential_id: '0b5e1c2a-7d3f-4e8a-9c1b-2f4d6a8e0c12' } }), { sandboxHosts: false })));
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
