/**
 * Deepgram pre-recorded (research B.2): `POST /v1/listen?model=…&diarize=true…` with `{"url": …}`,
 * answered synchronously with the whole transcript (`ListenV1Response`). Header
 * `Authorization: Token <key>`. Times in seconds; an integer `speaker` on each word from 0. Options are
 * query parameters, so `custom_params` become query parameters too. Deepgram's callback mode is not
 * used: it needs a public address of ours, and the synchronous answer carries the same body.
 */
import * as t from 'io-ts';
import type { RecognizedWord } from '../../domain/transcription/transcript';
import { hostedJob, optional, wordsInTimeOrder, type HostedClientOptions } from './hosted-provider-kit';
import { hostedProblems } from './options-problems';
import { decodeAnswer, defaultPollPolicy } from './poll-job';
import { defaultHttpPolicy, ProviderHttp, stringField } from './provider-http';
import { TranscriptionFailed, type ProviderTranscript, type TranscriptionOptions, type TranscriptionProvider, type TranscriptionRequest } from './port';

export const DEEPGRAM_DEFAULT_URL = 'https://api.deepgram.com';

const Word = t.type({ word: t.string, start: t.number, end: t.number, confidence: optional(t.number), speaker: optional(t.number), punctuated_word: optional(t.string) });
const ListenResponse = t.type({
  metadata: t.type({ request_id: t.string, duration: optional(t.number) }),
  results: t.type({
    channels: t.array(t.type({ alternatives: t.array(t.type({ words: t.array(Word) })), detected_language: optional(t.string) })),
  }),
});
type ListenResponse = t.TypeOf<typeof ListenResponse>;

/** Deepgram's error body: `{err_code, err_msg, request_id}`. */
const deepgramError = (body: unknown): string | null => {
  const code = stringField(body, 'err_code');
  const message = stringField(body, 'err_msg');
  return code && message ? `${code}: ${message}` : (message ?? code);
};

type QueryValue = string | number | boolean;
const isQueryValue = (v: unknown): v is QueryValue => ['string', 'number', 'boolean'].includes(typeof v);

export class DeepgramProvider implements TranscriptionProvider {
  readonly name = 'Deepgram' as const;
  private readonly http: ProviderHttp;

  constructor(private readonly options: HostedClientOptions) {
    this.http = new ProviderHttp(this.name, options.baseUrl, deepgramError, options.http ?? defaultHttpPolicy);
  }

  problemWith(options: TranscriptionOptions): string | null {
    const problem = hostedProblems(options, 'callback', 'callback_method');
    if (problem) return problem;
    for (const [key, value] of Object.entries(options.customParams ?? {})) {
      if (!(isQueryValue(value) || (Array.isArray(value) && value.every(isQueryValue)))) {
        return `custom_params.${key} must be a string, number, boolean or a list of them: Deepgram takes its options as query parameters`;
      }
    }
    return null;
  }

  async transcribe(request: TranscriptionRequest): Promise<ProviderTranscript> {
    const { audioUrl, apiKey } = hostedJob(this, request);
    const query = new URLSearchParams();
    const params: Record<string, unknown> = {
      model: 'nova-3',
      diarize: true,
      utterances: true,
      punctuate: true,
      smart_format: true,
      ...(request.language ? { language: request.language } : {}),
      ...request.customParams,
    };
    for (const [key, value] of Object.entries(params)) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
    }
    const raw = await this.http.json({
      method: 'POST',
      path: `/v1/listen?${query}`,
      headers: { authorization: `Token ${apiKey}` },
      body: { url: audioUrl },
      signal: request.signal,
      secret: apiKey,
      timeoutMs: (this.options.poll ?? defaultPollPolicy).timeoutMs,
    });
    const answer = decodeAnswer(this.name, ListenResponse, raw, 'the transcript');
    return { provider: this.name, jobIds: [answer.metadata.request_id], raw, ...normalise(answer, request.language ?? null) };
  }
}

const normalise = (answer: ListenResponse, asked: string | null): Pick<ProviderTranscript, 'words' | 'language' | 'duration'> => {
  // a recording is one channel; should a file have more, their words interleave by time
  const words: RecognizedWord[] = answer.results.channels.flatMap((channel) =>
    (channel.alternatives[0]?.words ?? []).map((w) => ({
      word: (w.punctuated_word ?? w.word).trim(),
      start: w.start,
      end: w.end,
      confidence: w.confidence ?? null,
      speaker_label: w.speaker === undefined || w.speaker === null ? null : String(w.speaker),
    })),
  );
  return {
    words: wordsInTimeOrder(words),
    language: answer.results.channels[0]?.detected_language ?? asked,
    duration: answer.metadata.duration ?? null,
  };
};
