import assert from 'node:assert/strict';
import { accepted, MT_URL, mtBody, refused, repeat, TM_URL, tmBody, VC_URL, vcBody } from './create-bot-helpers';

describe('decodeCreateBotRequest: defaults and top level', () => {
  it('fills in every default of the spec for a minimal request', () => {
    assert.deepEqual(accepted(vcBody()), {
      meeting_url: VC_URL,
      platform: 'vc',
      bot_name: 'Notetaker',
      allow_multiple_bots: true,
      bot_image: [],
      bot_image_config: null,
      callback_enabled: false,
      callback_config: null,
      entry_message: null,
      extra: null,
      ignored_participant_names: [],
      mt_config: null,
      tm_config: null,
      timeout_config: { grace_period: 0, no_one_joined_timeout: 600, silence_timeout: 600, waiting_room_timeout: 600, max_recording_duration: null },
      recording_mode: 'speaker_view',
      streaming_enabled: false,
      streaming_config: null,
      transcription_enabled: false,
      transcription_config: null,
      vc_config: null,
    });
  });

  it('reads an explicit null as the default', () => {
    const r = accepted(vcBody({ allow_multiple_bots: null, bot_image: null, timeout_config: null, recording_mode: null, ignored_participant_names: null }));
    assert.equal(r.allow_multiple_bots, true);
    assert.deepEqual(r.bot_image, []);
    assert.equal(r.timeout_config.silence_timeout, 600);
    assert.equal(r.recording_mode, 'speaker_view');
    assert.deepEqual(r.ignored_participant_names, []);
  });

  it('gives each request its own default arrays', () => {
    const a = accepted(vcBody());
    a.bot_image.push('https://x.example/a.png');
    assert.deepEqual(accepted(vcBody()).bot_image, []);
  });

  const notObjects: Array<[string, unknown]> = [['undefined (empty body)', undefined], ['null', null], ['an array', [vcBody()]], ['a string', 'hi'], ['a number', 1]];
  for (const [name, body] of notObjects) {
    it(`refuses a body that is ${name}`, () => refused(body, 'body must be object'));
  }

  const unknownFields: Array<[string, Record<string, unknown>, string]> = [
    ['a misspelt top-level field', { bot_nmae: 'x' }, 'body/bot_nmae is not an allowed property'],
    ['a legacy field', { webhook_url: 'https://x.example' }, 'body/webhook_url is not an allowed property'],
    ['__proto__ from JSON', JSON.parse('{"__proto__": {"admin": true}}') as Record<string, unknown>, 'body/__proto__ is not an allowed property'],
    ['a misspelt timeout', { timeout_config: { silence_timout: 5 } }, 'body/timeout_config/silence_timout is not an allowed property'],
  ];
  for (const [name, extra, details] of unknownFields) {
    it(`refuses ${name}, naming it`, () => refused(vcBody(extra), details));
  }

  const required: Array<[string, Record<string, unknown>, string]> = [
    ['meeting_url', { bot_name: 'x' }, 'body/meeting_url is required'],
    ['bot_name', { meeting_url: VC_URL }, 'body/bot_name is required'],
  ];
  for (const [field, body, details] of required) {
    it(`requires ${field}`, () => refused(body, details));
  }

  it('reports the first failing field in declaration order', () => {
    refused({ meeting_url: 'http://zoom.us/j/1', bot_name: '' }, /^body\/meeting_url /);
  });
});

describe('decodeCreateBotRequest: meeting_url', () => {
  const good: Array<[string, string, 'vc' | 'tm' | 'mt', boolean]> = [
    ['zoom.us', VC_URL, 'vc', false],
    ['a zoom.us subdomain', 'https://us02web.zoom.us/j/85?pwd=x', 'vc', false],
    ['teams.microsoft.com', TM_URL, 'tm', false],
    ['teams.live.com', 'https://teams.live.com/meet/9312', 'tm', false],
    ['meet.google.com', MT_URL, 'mt', false],
    ['the vc sandbox', 'https://vc.localhost:8443/j/123456789', 'vc', true],
    ['the tm sandbox', 'https://tm.localhost:8443/l/meetup-join/abc', 'tm', true],
    ['the mt sandbox', 'https://mt.localhost:8443/abc-defg-hij', 'mt', true],
  ];
  for (const [name, url, platform, sandbox] of good) {
    it(`accepts ${name} as ${platform}`, () => {
      const r = accepted({ meeting_url: url, bot_name: 'Notetaker' }, sandbox);
      assert.equal(r.platform, platform);
      assert.equal(r.meeting_url, url);
    });
  }

  it('trims surrounding whitespace', () => assert.equal(accepted(vcBody({ meeting_url: `  ${VC_URL}\n` })).meeting_url, VC_URL));

  const bad: Array<[string, unknown, RegExp, boolean?]> = [
    ['http instead of https', 'http://zoom.us/j/123', /must be an https URL/],
    ['another scheme', 'ftp://zoom.us/j/123', /must be an https URL/],
    ['text that is not a URI', 'zoom.us/j/123', /must be a valid URI/],
    ['an unknown host', 'https://example.com/j/123', /host example.com is not a vc, tm or mt meeting host/],
    ['a look-alike host', 'https://zoom.us.evil.example/j/1', /is not a vc, tm or mt meeting host/],
    ['user info', 'https://zoom.us@evil.example/j/1', /must NOT contain user info/],
    ['only the host', 'https://zoom.us/', /must name a meeting/],
    ['a sandbox host when the sandbox is off', 'https://vc.localhost:8443/j/123456789', /is not a vc, tm or mt meeting host/, false],
    ['a number', 42, /must be string/],
    ['more than 2048 characters', `https://zoom.us/j/${repeat(2040, '1')}`, /must NOT have more than 2048 characters/],
  ];
  for (const [name, url, why, sandbox] of bad) {
    it(`refuses ${name} with INVALID_MEETING_URL naming body/meeting_url`, () => {
      const details = refused(vcBody({ meeting_url: url }), why, sandbox ?? false);
      assert.match(details, /^body\/meeting_url INVALID_MEETING_URL: /);
    });
  }
});

describe('decodeCreateBotRequest: bot_name (all platforms)', () => {
  const lengths: Array<[string, string, boolean]> = [
    ['1 character', 'a', true],
    ['255 characters', repeat(255), true],
    ['256 characters', repeat(256), false],
    ['255 emoji (counted as characters, not UTF-16 units)', repeat(255, '🤖'), true],
    ['256 emoji', repeat(256, '🤖'), false],
  ];
  for (const [name, botName, ok] of lengths) {
    it(`${ok ? 'accepts' : 'refuses'} ${name} on vc and mt`, () => {
      for (const body of [vcBody({ bot_name: botName }), mtBody({ bot_name: botName })]) {
        if (ok) assert.equal(accepted(body).bot_name, botName);
        else refused(body, 'body/bot_name must NOT have more than 255 characters');
      }
    });
  }

  const bad: Array<[string, unknown, string]> = [
    ['an empty name', '', 'body/bot_name must NOT have fewer than 1 characters'],
    ['a blank name', '   ', 'body/bot_name must NOT be whitespace only'],
    ['a number', 7, 'body/bot_name must be string'],
    ['null', null, 'body/bot_name must be string'],
  ];
  for (const [name, botName, details] of bad) {
    it(`refuses ${name}`, () => refused(vcBody({ bot_name: botName }), details));
  }

  it('stores the name in NFC form', () => {
    assert.equal(accepted(vcBody({ bot_name: 'Zoe\u0308' })).bot_name, 'Zo\u00eb');
  });

  it('does not apply the tm guest rules to vc or mt', () => {
    for (const name of ['a..b', '.a', 'a  b', 'Bot 🤖', repeat(51)]) {
      assert.equal(accepted(vcBody({ bot_name: name })).bot_name, name);
      assert.equal(accepted(mtBody({ bot_name: name })).bot_name, name);
    }
  });

  it('applies the tm guest rules on tm and names body/bot_name', () => {
    refused(tmBody({ bot_name: 'a..b' }), 'body/bot_name must NOT contain consecutive periods for a tm meeting');
  });
});

describe('decodeCreateBotRequest: flags, recording_mode, entry_message, extra, ignored names', () => {
  it('takes allow_multiple_bots false', () => assert.equal(accepted(vcBody({ allow_multiple_bots: false })).allow_multiple_bots, false));

  for (const field of ['allow_multiple_bots', 'callback_enabled', 'streaming_enabled', 'transcription_enabled']) {
    it(`refuses a string for ${field}`, () => refused(vcBody({ [field]: 'true' }), `body/${field} must be boolean`));
  }

  for (const mode of ['speaker_view', 'audio_only', 'gallery_view']) {
    it(`accepts recording_mode ${mode}`, () => assert.equal(accepted(vcBody({ recording_mode: mode })).recording_mode, mode));
  }
  it('refuses an unknown recording_mode', () =>
    refused(vcBody({ recording_mode: 'video' }), 'body/recording_mode must be equal to one of the allowed values: speaker_view, audio_only, gallery_view'));

  const entry: Array<[string, unknown, string | null | RegExp]> = [
    ['4096 characters', repeat(4096), repeat(4096)],
    ['4097 characters', repeat(4097), 'body/entry_message must NOT have more than 4096 characters'],
    ['an empty string (no message)', '', null],
    ['a blank string (no message)', '  \n', null],
    ['null', null, null],
    ['a number', 1, 'body/entry_message must be string'],
  ];
  for (const [name, value, expected] of entry) {
    it(`entry_message: ${name}`, () => {
      if (typeof expected === 'string' && expected.startsWith('body/')) refused(vcBody({ entry_message: value }), expected);
      else assert.equal(accepted(vcBody({ entry_message: value })).entry_message, expected);
    });
  }

  it('keeps extra as given, nested values included', () => {
    const extra = { deal: 42, tags: ['a'], nested: { ok: true } };
    assert.deepEqual(accepted(vcBody({ extra })).extra, extra);
  });
  for (const [name, value] of [['an array', [1]], ['a string', 'x'], ['a number', 3]] as const) {
    it(`refuses extra that is ${name}`, () => refused(vcBody({ extra: value }), 'body/extra must be object'));
  }

  const ignored: Array<[string, unknown, string | null]> = [
    ['100 names', Array.from({ length: 100 }, (_, i) => `p${i}`), null],
    ['101 names', Array.from({ length: 101 }, (_, i) => `p${i}`), 'body/ignored_participant_names must NOT have more than 100 items'],
    ['a 255-character name', [repeat(255)], null],
    ['a 256-character name', ['ok', repeat(256)], 'body/ignored_participant_names/1 must NOT have more than 255 characters'],
    ['an empty name', [''], 'body/ignored_participant_names/0 must NOT have fewer than 1 characters'],
    ['a number among names', ['ok', 5], 'body/ignored_participant_names/1 must be string'],
    ['a string instead of an array', 'Bob', 'body/ignored_participant_names must be array'],
  ];
  for (const [name, value, details] of ignored) {
    it(`ignored_participant_names: ${details === null ? 'accepts' : 'refuses'} ${name}`, () => {
      if (details === null) assert.deepEqual(accepted(vcBody({ ignored_participant_names: value })).ignored_participant_names, value);
      else refused(vcBody({ ignored_participant_names: value }), details);
    });
  }
});
