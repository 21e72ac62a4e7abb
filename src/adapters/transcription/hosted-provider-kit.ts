/** What the hosted providers' clients share: their options, the checks before a job, reading their words. */
import * as t from 'io-ts';
import type { RecognizedWord } from '../../domain/transcription/transcript';
import type { PollPolicy } from './poll-job';
import type { HttpPolicy } from './provider-http';
import { TranscriptionFailed, type TranscriptionProvider, type TranscriptionRequest } from './port';

/** What a hosted provider's client is built with: where the provider is, and how patient to be. */
export interface HostedClientOptions {
  /** the provider's API root; a local fake's in tests (docs/transcription.md lists the variables) */
  readonly baseUrl: string;
  readonly http?: HttpPolicy;
  readonly poll?: PollPolicy;
}

/** The signed URL and the key of a request a hosted provider can take; throws TranscriptionFailed otherwise. */
export const hostedJob = (provider: TranscriptionProvider, request: TranscriptionRequest): { readonly audioUrl: string; readonly apiKey: string } => {
  const problem = provider.problemWith(request);
  if (problem) throw new TranscriptionFailed(provider.name, problem);
  if (!request.audio.url) throw new TranscriptionFailed(provider.name, 'needs the audio as a URL it can fetch');
  return { audioUrl: request.audio.url, apiKey: request.apiKey! };
};

/**
 * The job to wait for: the one the request already has, or a new one `create` asks the provider for,
 * told to the caller (who records it) before anyone waits for it.
 */
export const jobToWaitFor = async (request: TranscriptionRequest, create: () => Promise<string>): Promise<string> => {
  if (request.job) return request.job;
  const created = await create();
  await request.onJobCreated?.(created);
  return created;
};

/** A field a provider may leave out or set to null. */
export const optional = <C extends t.Mixed>(codec: C) => t.union([codec, t.undefined, t.null]);

/** Words with text, in time order (providers may give empty tokens and group words by speaker). */
export const wordsInTimeOrder = (words: readonly RecognizedWord[]): RecognizedWord[] =>
  words.filter((w) => w.word !== '').sort((a, b) => a.start - b.start || a.end - b.end);
