import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { endVerdict } from '../../bot-runtime/end-codes';
import { imageTypeOf } from '../../bot-runtime/media/bot-images';
import { ConnectedTime } from '../../bot-runtime/streaming/connected-time';
import { frameBytes, handshake, reconnectDelayMs, socketPlan, speakerStateMessage } from '../../bot-runtime/streaming/wire';
import { BotReportCodec } from '../../src/http/codecs/bot-report';

describe('streaming: the pure parts', () => {
  it('a frame is 100 ms of S16LE mono: 3,200 bytes at 16 kHz, 4,800 at 24 kHz, 6,400 at 32 kHz, 9,600 at 48 kHz', () => {
    assert.deepEqual([16000, 24000, 32000, 48000].map(frameBytes), [3200, 4800, 6400, 9600]);
  });

  it('the handshake has exactly the four fields of the wire format', () => {
    assert.deepEqual(JSON.parse(handshake('b-1', 12.34567, 24000)), { protocol_version: 2, bot_id: 'b-1', offset: 12.346, sample_rate: 24000 });
  });

  it('speaker state is a JSON array of {name, id, timestamp, isSpeaking}', () => {
    assert.deepEqual(JSON.parse(speakerStateMessage([{ name: 'Alice', id: null, timestamp: 1.5, isSpeaking: true }])), [
      { name: 'Alice', id: null, timestamp: 1.5, isSpeaking: true },
    ]);
  });

  it('one socket when input and output are the same URL, two otherwise, one for a single direction', () => {
    assert.deepEqual(socketPlan({ input_url: 'ws://a/x', output_url: 'ws://a/x', audio_frequency: 16000 }), [{ url: 'ws://a/x', directions: ['output', 'input'] }]);
    assert.deepEqual(socketPlan({ input_url: 'ws://a/in', output_url: 'ws://a/out', audio_frequency: 16000 }), [
      { url: 'ws://a/out', directions: ['output'] },
      { url: 'ws://a/in', directions: ['input'] },
    ]);
    assert.deepEqual(socketPlan({ input_url: 'ws://a/in', output_url: null, audio_frequency: 16000 }), [{ url: 'ws://a/in', directions: ['input'] }]);
  });

  it('reconnection waits double from 1 s and stop at 60 s', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelayMs), [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('connected time counts only while connected and counting (from the recording on)', () => {
    let now = 0;
    const time = new ConnectedTime(() => now);
    time.connected();
    now = 5000; // connected before the recording: not counted
    time.startCounting();
    now = 8000;
    time.disconnected(); // 3 s
    now = 10_000;
    time.connected();
    now = 12_500; // 2.5 s
    time.stopCounting();
    now = 20_000;
    assert.equal(time.seconds(), 5.5);
  });

  it('images are recognised by their first bytes: JPEG, PNG, WebP; anything else is not an image', () => {
    assert.equal(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])), 'image/jpeg');
    assert.equal(imageTypeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
    assert.equal(imageTypeOf(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')])), 'image/webp');
    assert.equal(imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
    assert.equal(imageTypeOf(Buffer.from('GIF89a')), null);
    assert.equal(imageTypeOf(Buffer.alloc(0)), null);
  });

  it('a streaming setup failure ends the bot failed STREAMING_SETUP_FAILED', () => {
    const verdict = endVerdict({ kind: 'streaming_setup_failed', message: 'Streaming could not be set up: refused' }, { platform: 'mt', phase: 'joining', recordingStarted: false });
    assert.deepEqual(verdict, { outcome: 'failed', error_code: 'STREAMING_SETUP_FAILED', error_message: 'Streaming could not be set up: refused' });
  });

  it("the service accepts an end report's streaming seconds and refuses impossible ones", () => {
    const end = { kind: 'end', outcome: 'completed', error_code: 'API_REQUEST', error_message: '', recorded_seconds: 10, waiting_room_seconds: 0, at: '2026-11-23T10:00:00.000Z' };
    assert.ok(E.isRight(BotReportCodec.decode(end)), 'without streaming');
    assert.ok(E.isRight(BotReportCodec.decode({ ...end, streaming_seconds: { input: 0, output: 9.5 } })));
    assert.ok(E.isLeft(BotReportCodec.decode({ ...end, streaming_seconds: { input: -1, output: 9.5 } })));
    assert.ok(E.isLeft(BotReportCodec.decode({ ...end, streaming_seconds: { output: 9.5 } })));
  });
});
