import assert from 'node:assert/strict';
import { providerNameOf, providerUrlsFromEnv, transcriptionProviders } from '../../../src/adapters/transcription/providers';
import { providerNames } from '../../../src/adapters/transcription/port';

describe('transcription providers from the environment', () => {
  it('each hosted provider at its own address unless its *_API_URL says otherwise', () => {
    assert.deepEqual(providerUrlsFromEnv({}), { gladia: 'https://api.gladia.io', deepgram: 'https://api.deepgram.com', assemblyai: 'https://api.assemblyai.com' });
    assert.deepEqual(providerUrlsFromEnv({ GLADIA_API_URL: 'http://127.0.0.1:4010', DEEPGRAM_API_URL: '', ASSEMBLYAI_API_URL: 'https://eu.assemblyai.example' }), {
      gladia: 'http://127.0.0.1:4010',
      deepgram: 'https://api.deepgram.com',
      assemblyai: 'https://eu.assemblyai.example',
    });
  });

  it('a value that is not an http(s) URL stops the start, naming the variable', () => {
    assert.throws(() => providerUrlsFromEnv({ DEEPGRAM_API_URL: 'api.deepgram.com' }), /DEEPGRAM_API_URL must be an http\(s\) URL, got "api.deepgram.com"/);
    assert.throws(() => providerUrlsFromEnv({ ASSEMBLYAI_API_URL: 'ftp://x' }), /ASSEMBLYAI_API_URL must be an http\(s\) URL/);
  });

  it('one provider per name, each answering to its name', () => {
    const providers = transcriptionProviders({ urls: providerUrlsFromEnv({}) });
    assert.deepEqual(Object.keys(providers), [...providerNames]);
    for (const name of providerNames) assert.equal(providers[name].name, name);
  });

  it('a provider named in any case (v2 "gladia", legacy "Gladia"); an unknown name is none', () => {
    assert.deepEqual(['default', 'Gladia', 'DEEPGRAM', ' assemblyai '].map(providerNameOf), ['Default', 'Gladia', 'Deepgram', 'AssemblyAI']);
    assert.equal(providerNameOf('Runpod'), null);
  });
});
