/** Every transcription provider, built from where the hosted ones are (`*_API_URL`, docs/transcription.md). */
import { AssemblyAiProvider, ASSEMBLYAI_DEFAULT_URL } from './assemblyai';
import { DeepgramProvider, DEEPGRAM_DEFAULT_URL } from './deepgram';
import { PocketSphinxProvider, type PocketSphinxOptions } from './default-pocketsphinx';
import { GladiaProvider, GLADIA_DEFAULT_URL } from './gladia';
import type { HostedClientOptions } from './hosted-provider-kit';
import { providerNames, type ProviderName, type TranscriptionProvider } from './port';

export interface ProviderUrls {
  readonly gladia: string;
  readonly deepgram: string;
  readonly assemblyai: string;
}

const urlFrom = (name: string, value: string | undefined, fallback: string): string => {
  if (value === undefined || value === '') return fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  return value;
};

/** `GLADIA_API_URL`, `DEEPGRAM_API_URL`, `ASSEMBLYAI_API_URL`; each provider's own address when unset. */
export const providerUrlsFromEnv = (env: NodeJS.ProcessEnv = process.env): ProviderUrls => ({
  gladia: urlFrom('GLADIA_API_URL', env.GLADIA_API_URL, GLADIA_DEFAULT_URL),
  deepgram: urlFrom('DEEPGRAM_API_URL', env.DEEPGRAM_API_URL, DEEPGRAM_DEFAULT_URL),
  assemblyai: urlFrom('ASSEMBLYAI_API_URL', env.ASSEMBLYAI_API_URL, ASSEMBLYAI_DEFAULT_URL),
});

export interface ProviderSettings {
  readonly urls: ProviderUrls;
  readonly hosted?: Omit<HostedClientOptions, 'baseUrl'>;
  readonly pocketsphinx?: PocketSphinxOptions;
}

export const transcriptionProviders = (settings: ProviderSettings): Readonly<Record<ProviderName, TranscriptionProvider>> => ({
  Default: new PocketSphinxProvider(settings.pocketsphinx),
  Gladia: new GladiaProvider({ ...settings.hosted, baseUrl: settings.urls.gladia }),
  Deepgram: new DeepgramProvider({ ...settings.hosted, baseUrl: settings.urls.deepgram }),
  AssemblyAI: new AssemblyAiProvider({ ...settings.hosted, baseUrl: settings.urls.assemblyai }),
});

/** A provider as a request names it: v2 writes `gladia`, legacy `Gladia`; case does not matter. */
export const providerNameOf = (name: string): ProviderName | null => providerNames.find((p) => p.toLowerCase() === name.trim().toLowerCase()) ?? null;
