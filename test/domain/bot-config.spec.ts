import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as E from 'fp-ts/Either';
import { PathReporter } from 'io-ts/PathReporter';
import { DomainEvent } from '../../src/domain/all-events';
import { BotConfigCodec, defaultBotConfig, type BotConfig } from '../../src/domain/bot/bot-config';

const fixture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/bot-created-before-bot-config.json'), 'utf8')) as {
  events: { type: string; data: Record<string, unknown> }[];
};

const decodeEvent = (event: unknown) => {
  const decoded = DomainEvent.decode(event);
  if (E.isLeft(decoded)) assert.fail(PathReporter.report(decoded).join('; '));
  const right = decoded.right;
  if (right.type !== 'BotCreated') assert.fail(`expected BotCreated, got ${right.type}`);
  return right.data;
};

const sealedValue = { sealed: 'v1.iv.tag.body' };

describe('BotConfig: the domain owns what a bot is asked to do', () => {
  describe('given a BotCreated written before BotConfig existed (stored fixture of the old version)', () => {
    it('when it is read, then every option of the old request becomes its BotConfig field, secrets still sealed', () => {
      const data = decodeEvent(fixture.events[0]);
      const config = data.config;
      assert.equal(config.version, 1);
      assert.equal(config.api, 'v2');
      assert.equal(config.recording_mode, 'audio_only');
      assert.deepEqual(config.timeouts, { grace_period: 0, no_one_joined_timeout: 600, silence_timeout: 300, waiting_room_timeout: 600, max_recording_duration: null });
      assert.equal(config.entry_message, 'Hello');
      assert.deepEqual(config.ignored_participant_names, ['Other Bot']);
      assert.equal(config.allow_multiple_bots, false);
      assert.deepEqual(config.bot_image, { urls: ['https://example.com/a.png'], mode: 'static', interval_seconds: 10 });
      assert.equal(config.callback?.url, 'https://example.com/cb');
      assert.equal(config.callback?.method, 'POST');
      assert.match(config.callback?.secret?.sealed ?? '', /^v1\./);
      assert.deepEqual(config.streaming, { input_url: null, output_url: 'wss://example.com/out', audio_frequency: 16000 });
      assert.equal(config.transcription?.provider, 'Gladia');
      assert.match(config.transcription?.api_key?.sealed ?? '', /^v1\./);
      assert.equal(config.vc?.obf?.kind, 'token', 'the old flat vc_config becomes its one OBF source');
      assert.match(config.vc?.obf?.kind === 'token' ? config.vc.obf.token.sealed : '', /^v1\./);
      assert.equal(config.vc?.zak_token_url, null);
      assert.equal(config.vc?.sdk, null);
      assert.equal(config.login, null);
      assert.deepEqual(config.storage, { kind: 'service' });
      assert.equal(data.created_by, null, 'no key was kept before');
    });

    it('when the old request had every option at its default, then its BotConfig is the default one', () => {
      assert.deepEqual(decodeEvent(fixture.events[1]).config, defaultBotConfig());
    });
  });

  describe('given an old request whose objects were kept with their enable flags off', () => {
    it('when it is read, then callback, streaming and transcription are off (they asked for nothing)', () => {
      const decoded = BotConfigCodec.decode({
        callback_enabled: false,
        callback_config: { url: 'https://x.example', method: 'PUT', secret: null },
        streaming_enabled: false,
        streaming_config: { output_url: 'wss://x.example' },
        transcription_enabled: false,
        transcription_config: { provider: 'Gladia', api_key: sealedValue },
      });
      assert.ok(E.isRight(decoded));
      const config = (decoded as E.Right<BotConfig>).right;
      assert.equal(config.callback, null);
      assert.equal(config.streaming, null);
      assert.equal(config.transcription, null);
    });

    it('when transcription was switched on without a config, then it is the Default provider', () => {
      const decoded = BotConfigCodec.decode({ transcription_enabled: true });
      assert.deepEqual(E.isRight(decoded) && decoded.right.transcription, { provider: 'Default', api_key: null, custom_params: null });
    });
  });

  describe('given a version 1 config whose vc part was flat (stored fixture of that version)', () => {
    const flat = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/bot-created-flat-vc-config.json'), 'utf8')) as typeof fixture;

    it('when it is read, then the OBF source, the ZAK URL and the own SDK credentials become the vc part, secrets still sealed', () => {
      const legacy = decodeEvent(flat.events[0]).config.vc;
      assert.deepEqual(legacy?.obf, { kind: 'credential_user', vc_user_id: 'KdYKjnimT4KPd8KKdQt9FQ' });
      assert.equal(legacy?.zak_token_url, null);
      assert.equal(legacy?.sdk?.sdk_id, 'my-sdk-key');
      assert.match(legacy?.sdk?.sdk_secret.sealed ?? '', /^v1\./);
      const v2 = decodeEvent(flat.events[1]).config.vc;
      assert.deepEqual(v2, { obf: { kind: 'token_url', url: 'https://tokens.example.com/obf' }, zak_token_url: 'https://tokens.example.com/zak', sdk: null });
    });

    it('when the current shape is read, then it is kept as it is', () => {
      const current = { obf: { kind: 'credential', credential_id: 'c' }, zak_token_url: null, sdk: null };
      const decoded = BotConfigCodec.decode({ ...defaultBotConfig(), vc: current });
      assert.deepEqual(E.isRight(decoded) && decoded.right.vc, current);
    });

    it('when a stored vc part names an OBF source of an unknown kind, then decoding fails', () => {
      assert.ok(E.isLeft(BotConfigCodec.decode({ ...defaultBotConfig(), vc: { obf: { kind: 'carrier_pigeon' }, zak_token_url: null, sdk: null } })));
    });
  });

  describe('given a version 1 config written before a later field was added', () => {
    it('when it is read, then the missing fields take their defaults', () => {
      const { deduplication_key: _d, webhook_url: _w, storage: _s, api: _a, ...older } = defaultBotConfig();
      assert.deepEqual(E.isRight(BotConfigCodec.decode(older)) && BotConfigCodec.decode(older), E.right(defaultBotConfig()));
    });
  });

  describe('given something that is not a config', () => {
    it('when it is read, then decoding fails (a corrupt event is an error, never a guess)', () => {
      for (const bad of [null, [], 'config', { version: 1 }, { version: 2, recording_mode: 'speaker_view' }, { recording_mode: 'hologram' }]) {
        assert.ok(E.isLeft(BotConfigCodec.decode(bad)), JSON.stringify(bad));
      }
    });
  });
});
