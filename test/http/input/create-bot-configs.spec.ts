import assert from 'node:assert/strict';
import { accepted, mtBody, refused, repeat, tmBody, vcBody } from './create-bot-helpers';

const UUID = '9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e';

describe('decodeCreateBotRequest: bot_image and bot_image_config', () => {
  const img = (i: number) => `https://cdn.example/avatar-${i}.png`;
  it('normalises one URL to an array', () => assert.deepEqual(accepted(vcBody({ bot_image: img(1) })).bot_image, [img(1)]));
  it('accepts 5 images', () => assert.equal(accepted(vcBody({ bot_image: [1, 2, 3, 4, 5].map(img) })).bot_image.length, 5));

  const bad: Array<[string, unknown, string]> = [
    ['6 images', [1, 2, 3, 4, 5, 6].map(img), 'body/bot_image must NOT have more than 5 items'],
    ['an empty array', [], 'body/bot_image must NOT have fewer than 1 items'],
    ['an http URL', 'http://cdn.example/a.png', 'body/bot_image must be a URL with scheme https'],
    ['an http URL in the array', [img(1), 'http://cdn.example/a.png'], 'body/bot_image/1 must be a URL with scheme https'],
    ['text that is not a URL', 'avatar.png', 'body/bot_image must be a URL with scheme https'],
    ['a number', 3, 'body/bot_image must be array'],
  ];
  for (const [name, value, details] of bad) {
    it(`refuses ${name}`, () => refused(vcBody({ bot_image: value }), details));
  }

  it('fills bot_image_config defaults (cycle every 10 s)', () =>
    assert.deepEqual(accepted(vcBody({ bot_image_config: {} })).bot_image_config, { mode: 'cycle', interval_seconds: 10 }));
  it('takes static mode and the interval bounds 1 and 3600', () => {
    assert.deepEqual(accepted(vcBody({ bot_image_config: { mode: 'static', interval_seconds: 1 } })).bot_image_config, { mode: 'static', interval_seconds: 1 });
    assert.equal(accepted(vcBody({ bot_image_config: { interval_seconds: 3600 } })).bot_image_config?.interval_seconds, 3600);
  });
  const badConfig: Array<[unknown, string]> = [
    [{ mode: 'shuffle' }, 'body/bot_image_config/mode must be equal to one of the allowed values: cycle, static'],
    [{ interval_seconds: 0 }, 'body/bot_image_config/interval_seconds must be an integer >= 1'],
    [{ interval_seconds: 3601 }, 'body/bot_image_config/interval_seconds must be an integer <= 3600'],
    [{ interval_seconds: 2.5 }, 'body/bot_image_config/interval_seconds must be an integer'],
    [[], 'body/bot_image_config must be object'],
  ];
  for (const [value, details] of badConfig) {
    it(`refuses bot_image_config ${JSON.stringify(value)}`, () => refused(vcBody({ bot_image_config: value }), details));
  }
});

describe('decodeCreateBotRequest: callback', () => {
  const url = 'https://hooks.example/bot';
  it('defaults the method to POST and the secret to null', () =>
    assert.deepEqual(accepted(vcBody({ callback_enabled: true, callback_config: { url } })).callback_config, { url, method: 'POST', secret: null }));
  it('takes PUT and a 256-character secret', () =>
    assert.deepEqual(accepted(vcBody({ callback_config: { url, method: 'PUT', secret: repeat(256) } })).callback_config, { url, method: 'PUT', secret: repeat(256) }));
  it('keeps a config that is not enabled', () => {
    const r = accepted(vcBody({ callback_config: { url } }));
    assert.equal(r.callback_enabled, false);
    assert.equal(r.callback_config?.url, url);
  });
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['enabled without a config', { callback_enabled: true }, 'body/callback_config is required when callback_enabled is true'],
    // plain http is judged by the service's webhook target policy (tested over HTTP), not by the shape
    ['an ftp URL', { callback_config: { url: 'ftp://hooks.example/bot' } }, 'body/callback_config/url must be an https URL'],
    ['no URL', { callback_config: { method: 'POST' } }, 'body/callback_config/url is required'],
    ['GET', { callback_config: { url, method: 'GET' } }, 'body/callback_config/method must be equal to one of the allowed values: POST, PUT'],
    ['a 257-character secret', { callback_config: { url, secret: repeat(257) } }, 'body/callback_config/secret must NOT have more than 256 characters'],
    ['an empty secret', { callback_config: { url, secret: '' } }, 'body/callback_config/secret must NOT have fewer than 1 characters'],
  ];
  for (const [name, extra, details] of bad) {
    it(`refuses ${name}`, () => refused(vcBody(extra), details));
  }
});

describe('decodeCreateBotRequest: timeout_config', () => {
  const fields = ['grace_period', 'no_one_joined_timeout', 'silence_timeout', 'waiting_room_timeout'];
  it('fills the missing fields of a partial config', () =>
    assert.deepEqual(accepted(vcBody({ timeout_config: { silence_timeout: 30 } })).timeout_config, {
      grace_period: 0, no_one_joined_timeout: 600, silence_timeout: 30, waiting_room_timeout: 600, max_recording_duration: null,
    }));
  for (const field of fields) {
    for (const value of [0, 43200]) {
      it(`accepts ${field} = ${value}`, () => assert.equal((accepted(vcBody({ timeout_config: { [field]: value } })).timeout_config as Record<string, unknown>)[field], value));
    }
    const bad: Array<[unknown, string]> = [
      [-1, 'must be an integer >= 0'],
      [43201, 'must be an integer <= 43200'],
      [1.5, 'must be an integer'],
      ['600', 'must be an integer'],
    ];
    for (const [value, why] of bad) {
      it(`refuses ${field} = ${JSON.stringify(value)}`, () => refused(vcBody({ timeout_config: { [field]: value } }), `body/timeout_config/${field} ${why}`));
    }
  }
  const maxDuration: Array<[unknown, number | null | string]> = [
    [1, 1],
    [43200, 43200],
    [null, null],
    [0, 'must be an integer >= 1'],
    [43201, 'must be an integer <= 43200'],
  ];
  for (const [value, expected] of maxDuration) {
    it(`max_recording_duration ${JSON.stringify(value)}`, () => {
      const body = vcBody({ timeout_config: { max_recording_duration: value } });
      if (typeof expected === 'string') refused(body, `body/timeout_config/max_recording_duration ${expected}`);
      else assert.equal(accepted(body).timeout_config.max_recording_duration, expected);
    });
  }
  it('refuses a timeout_config that is not an object', () => refused(vcBody({ timeout_config: 600 }), 'body/timeout_config must be object'));
});

describe('decodeCreateBotRequest: mt_config and tm_config', () => {
  it('takes a tm_config on tm, lower-casing the credential id and defaulting fallback to fail', () =>
    assert.deepEqual(accepted(tmBody({ tm_config: { credential_id: UUID.toUpperCase() } })).tm_config, { credential_id: UUID, email_group: null, fallback: 'fail' }));
  it('takes an mt_config on mt with an email group and the anonymous fallback', () =>
    assert.deepEqual(accepted(mtBody({ mt_config: { email_group: 'pool@acme.example', fallback: 'anonymous' } })).mt_config, {
      credential_id: null, email_group: 'pool@acme.example', fallback: 'anonymous',
    }));
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['tm_config on an mt meeting', mtBody({ tm_config: {} }), 'body/tm_config is only allowed for tm meetings (meeting_url is a mt meeting)'],
    ['mt_config on a vc meeting', vcBody({ mt_config: {} }), 'body/mt_config is only allowed for mt meetings (meeting_url is a vc meeting)'],
    ['a credential id that is not a UUID', tmBody({ tm_config: { credential_id: 'abc' } }), 'body/tm_config/credential_id must match format "uuid"'],
    ['an email group that is not an email', mtBody({ mt_config: { email_group: 'pool' } }), 'body/mt_config/email_group must match format "email"'],
    ['an unknown fallback', tmBody({ tm_config: { fallback: 'retry' } }), 'body/tm_config/fallback must be equal to one of the allowed values: fail, anonymous'],
    ['an unknown field', tmBody({ tm_config: { password: 'x' } }), 'body/tm_config/password is not an allowed property'],
  ];
  for (const [name, body, details] of bad) {
    it(`refuses ${name}`, () => refused(body, details));
  }
});

describe('decodeCreateBotRequest: streaming', () => {
  it('takes a config with one wss URL and defaults audio_frequency to 16000', () =>
    assert.deepEqual(accepted(vcBody({ streaming_enabled: true, streaming_config: { input_url: 'wss://audio.example/in' } })).streaming_config, {
      input_url: 'wss://audio.example/in', output_url: null, audio_frequency: 16000,
    }));
  for (const hz of [16000, 24000, 32000, 48000]) {
    it(`accepts audio_frequency ${hz}`, () =>
      assert.equal(accepted(vcBody({ streaming_config: { output_url: 'ws://audio.example/out', audio_frequency: hz } })).streaming_config?.audio_frequency, hz));
  }
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['enabled without a config', { streaming_enabled: true }, 'body/streaming_config is required when streaming_enabled is true'],
    ['a config without any URL', { streaming_config: { audio_frequency: 16000 } }, 'body/streaming_config must have input_url or output_url'],
    ['an https URL', { streaming_config: { input_url: 'https://audio.example/in' } }, 'body/streaming_config/input_url must be a URL with scheme ws or wss'],
    ['44100 Hz', { streaming_config: { input_url: 'wss://a.example', audio_frequency: 44100 } }, 'body/streaming_config/audio_frequency must be equal to one of the allowed values: 16000, 24000, 32000, 48000'],
    ['a frequency as text', { streaming_config: { input_url: 'wss://a.example', audio_frequency: '16khz' } }, 'body/streaming_config/audio_frequency must be equal to one of the allowed values: 16000, 24000, 32000, 48000'],
  ];
  for (const [name, extra, details] of bad) {
    it(`refuses ${name}`, () => refused(vcBody(extra), details));
  }
});

describe('decodeCreateBotRequest: transcription', () => {
  it("switched on without a config uses the service's Default provider", () =>
    assert.deepEqual(accepted(vcBody({ transcription_enabled: true })).transcription_config, { provider: 'Default', api_key: null, custom_params: null }));
  it('stays null when off and not configured', () => assert.equal(accepted(vcBody()).transcription_config, null));
  it('keeps provider, api_key and custom_params', () =>
    assert.deepEqual(accepted(vcBody({ transcription_enabled: true, transcription_config: { provider: 'acme', api_key: 'k', custom_params: { lang: 'fr' } } })).transcription_config, {
      provider: 'acme', api_key: 'k', custom_params: { lang: 'fr' },
    }));
  const bad: Array<[string, unknown, string]> = [
    ['custom_params as an array', { custom_params: [] }, 'body/transcription_config/custom_params must be object'],
    ['an empty provider', { provider: '' }, 'body/transcription_config/provider must NOT have fewer than 1 characters'],
    ['a numeric api_key', { api_key: 5 }, 'body/transcription_config/api_key must be string'],
  ];
  for (const [name, config, details] of bad) {
    it(`refuses ${name}`, () => refused(vcBody({ transcription_config: config }), details));
  }
});

describe('decodeCreateBotRequest: vc_config', () => {
  it('takes an OBF token URL, or a ZAK token URL, on vc', () => {
    assert.deepEqual(accepted(vcBody({ vc_config: { obf_token_url: 'https://me.example/obf' } })).vc_config, {
      credential_id: null, credential_user_id: null, obf_token: null, obf_token_url: 'https://me.example/obf', zak_token_url: null,
    });
    assert.equal(accepted(vcBody({ vc_config: { zak_token_url: 'https://me.example/zak' } })).vc_config?.zak_token_url, 'https://me.example/zak');
  });
  it('takes plain http token URLs to this machine (the webhooks’ policy outside production decides at creation)', () =>
    assert.equal(accepted(vcBody({ vc_config: { obf_token_url: 'http://127.0.0.1:9999/obf' } })).vc_config?.obf_token_url, 'http://127.0.0.1:9999/obf'));
  it('takes a stored credential id', () => assert.equal(accepted(vcBody({ vc_config: { credential_id: UUID } })).vc_config?.credential_id, UUID));
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['vc_config on tm', tmBody({ vc_config: { obf_token: 't' } }), 'body/vc_config is only allowed for vc meetings (meeting_url is a tm meeting)'],
    ['vc_config on mt', mtBody({ vc_config: {} }), 'body/vc_config is only allowed for vc meetings (meeting_url is a mt meeting)'],
    ['two OBF sources', vcBody({ vc_config: { obf_token: 't', obf_token_url: 'https://me.example/obf' } }), 'body/vc_config must NOT name more than one of credential_id, credential_user_id, obf_token, obf_token_url (got obf_token, obf_token_url)'],
    ['a token URL that is no URL', vcBody({ vc_config: { obf_token_url: 'tokens please' } }), 'body/vc_config/obf_token_url must be a valid URL'],
    ['an OBF source with the ZAK token URL', vcBody({ vc_config: { obf_token: 't', zak_token_url: 'https://me.example/zak' } }), 'body/vc_config/zak_token_url must NOT be given with obf_token: the platform joins with an OBF token or a ZAK, never both'],
    ['a credential id that is not a UUID', vcBody({ vc_config: { credential_id: '42' } }), 'body/vc_config/credential_id must match format "uuid"'],
    ['legacy SDK fields', vcBody({ vc_config: { vc_sdk_id: 'x' } }), 'body/vc_config/vc_sdk_id is not an allowed property'],
  ];
  for (const [name, body, details] of bad) {
    it(`refuses ${name}`, () => refused(body, details));
  }
});
