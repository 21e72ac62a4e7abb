/**
 * The hosted providers' clients against local fakes of Gladia, Deepgram and AssemblyAI: the shared
 * contract, then the request each provider documents (auth header, body or query, our options and the
 * team's custom_params).
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssemblyAiProvider } from '../../../src/adapters/transcription/assemblyai';
import { DeepgramProvider } from '../../../src/adapters/transcription/deepgram';
import { GladiaProvider } from '../../../src/adapters/transcription/gladia';
import type { TranscriptionProvider } from '../../../src/adapters/transcription/port';
import { AssemblyAiFake } from '../../fakes/transcription/assemblyai-fake';
import { DeepgramFake } from '../../fakes/transcription/deepgram-fake';
import type { FakeProviderServer, RecordedRequest } from '../../fakes/transcription/fake-provider-kit';
import { GladiaFake } from '../../fakes/transcription/gladia-fake';
import { SignedAudioServer } from '../../fakes/transcription/signed-audio-server';
import { tmpDir } from '../../bot-runtime/support';
import { hostedProviderContract, KEY, quickPolicies, script } from './hosted-provider.contract';

hostedProviderContract({ name: 'Gladia', fake: (key) => new GladiaFake(key), provider: (o) => new GladiaProvider(o), label: String, polls: true, createdStatus: 201 });
hostedProviderContract({ name: 'Deepgram', fake: (key) => new DeepgramFake(key), provider: (o) => new DeepgramProvider(o), label: String, polls: false, createdStatus: 200 });
hostedProviderContract({
  name: 'AssemblyAI',
  fake: (key) => new AssemblyAiFake(key),
  provider: (o) => new AssemblyAiProvider(o),
  label: (speaker) => String.fromCharCode(65 + speaker),
  polls: true,
  createdStatus: 200,
});

describe('the request each hosted provider documents', () => {
  let dir: string;
  let audio: SignedAudioServer;

  before(async () => {
    // the fakes fetch the audio but do not decode it
    dir = tmpDir('provider-requests-');
    writeFileSync(join(dir, 'recording.mp3'), Buffer.alloc(4096, 1));
    audio = await new SignedAudioServer(join(dir, 'recording.mp3')).start();
  });

  after(async () => {
    await audio?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one transcription against a fresh fake and returns the request that created the job. */
  const creationRequest = async (fake: FakeProviderServer, make: (baseUrl: string) => TranscriptionProvider, customParams: Record<string, unknown> | null): Promise<RecordedRequest> => {
    await fake.start();
    try {
      fake.setScript({ words: script, pendingLooks: 0 });
      const result = await make(fake.url).transcribe({ audio: { url: audio.signedUrl }, apiKey: KEY, language: 'en', customParams });
      assert.equal(result.words.length, script.length);
      return fake.requests.find((r) => r.method === 'POST')!;
    } finally {
      await fake.stop();
    }
  };

  it('Gladia: x-gladia-key, JSON body with audio_url, diarization and language_config; custom_params merged in', async () => {
    const req = await creationRequest(new GladiaFake(KEY), (baseUrl) => new GladiaProvider({ baseUrl, ...quickPolicies }), {
      diarization_config: { number_of_speakers: 2 },
      summarization: true,
    });
    assert.equal(req.url, '/v2/pre-recorded');
    assert.equal(req.headers['x-gladia-key'], KEY);
    assert.match(String(req.headers['content-type']), /^application\/json/);
    assert.deepEqual(req.body, {
      diarization: true,
      language_config: { languages: ['en'], code_switching: false },
      diarization_config: { number_of_speakers: 2 },
      summarization: true,
      audio_url: audio.signedUrl,
    });
  });

  it('Deepgram: Authorization Token, {url} as JSON, options and custom_params as query parameters (lists repeated)', async () => {
    const req = await creationRequest(new DeepgramFake(KEY), (baseUrl) => new DeepgramProvider({ baseUrl, ...quickPolicies }), {
      model: 'nova-2',
      keyterm: ['Acme', 'roadmap'],
    });
    const url = new URL(req.url, 'http://x');
    assert.equal(url.pathname, '/v1/listen');
    assert.equal(req.headers.authorization, `Token ${KEY}`);
    assert.deepEqual(req.body, { url: audio.signedUrl });
    assert.deepEqual([...url.searchParams], [
      ['model', 'nova-2'],
      ['diarize', 'true'],
      ['utterances', 'true'],
      ['punctuate', 'true'],
      ['smart_format', 'true'],
      ['language', 'en'],
      ['keyterm', 'Acme'],
      ['keyterm', 'roadmap'],
    ]);
  });

  it('AssemblyAI: Authorization with the bare key, JSON body with audio_url, speaker_labels and language_code; custom_params merged in', async () => {
    const req = await creationRequest(new AssemblyAiFake(KEY), (baseUrl) => new AssemblyAiProvider({ baseUrl, ...quickPolicies }), { speakers_expected: 2 });
    assert.equal(req.url, '/v2/transcript');
    assert.equal(req.headers.authorization, KEY);
    assert.deepEqual(req.body, { speaker_labels: true, language_code: 'en', speakers_expected: 2, audio_url: audio.signedUrl });
  });

  describe('custom_params the service must own are refused before any request, naming the field', () => {
    const gladia = new GladiaProvider({ baseUrl: 'http://127.0.0.1:9' });
    const deepgram = new DeepgramProvider({ baseUrl: 'http://127.0.0.1:9' });
    const assembly = new AssemblyAiProvider({ baseUrl: 'http://127.0.0.1:9' });
    it('audio_url (Gladia, AssemblyAI), callback (Deepgram: the answer must come back synchronously)', () => {
      assert.equal(gladia.problemWith({ apiKey: KEY, customParams: { audio_url: 'https://elsewhere' } }), 'custom_params.audio_url cannot be set: the service sets it');
      assert.equal(assembly.problemWith({ apiKey: KEY, customParams: { audio_url: 'https://elsewhere' } }), 'custom_params.audio_url cannot be set: the service sets it');
      assert.equal(deepgram.problemWith({ apiKey: KEY, customParams: { callback: 'https://elsewhere' } }), 'custom_params.callback cannot be set: the service sets it');
    });
    it('Deepgram custom_params that cannot be query parameters', () => {
      assert.equal(
        deepgram.problemWith({ apiKey: KEY, customParams: { redact: { pci: true } } }),
        'custom_params.redact must be a string, number, boolean or a list of them: Deepgram takes its options as query parameters',
      );
    });
    it('a language that is not a language code', () => {
      assert.equal(gladia.problemWith({ apiKey: KEY, language: 'English please' }), 'language must be a language code such as "en" or "en-US"');
    });
  });
});
