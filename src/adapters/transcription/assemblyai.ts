/**
 * AssemblyAI v2 (research B.3): `POST /v2/transcript` with `{audio_url, speaker_labels: true}` answers
 * the transcript `queued` (unless the request already has its job); `GET /v2/transcript/{id}` until
 * `completed` or `error`. Header `Authorization: <key>` (no scheme). Times are integer milliseconds;
 * speakers are letters "A", "B".
 */
import * as t from 'io-ts';
import type { RecognizedWord } from '../../domain/transcription/transcript';
import { hostedJob, jobToWaitFor, optional, wordsInTimeOrder, type HostedClientOptions } from './hosted-provider-kit';
import { hostedProblems } from './options-problems';
import { decodeAnswer, defaultPollPolicy, jobDone, jobPending, pollJob } from './poll-job';
import { defaultHttpPolicy, ProviderHttp, stringField } from './provider-http';
import { TranscriptionFailed, type ProviderTranscript, type TranscriptionOptions, type TranscriptionProvider, type TranscriptionRequest } from './port';

export const ASSEMBLYAI_DEFAULT_URL = 'https://api.assemblyai.com';

const Word = t.type({ text: t.string, start: t.number, end: t.number, confidence: optional(t.number), speaker: optional(t.string) });
const Transcript = t.type({
  id: t.string,
  status: t.keyof({ queued: null, processing: null, completed: null, error: null }),
  error: optional(t.string),
  words: optional(t.array(Word)),
  language_code: optional(t.string),
  audio_duration: optional(t.number),
});
type Transcript = t.TypeOf<typeof Transcript>;

/** AssemblyAI's error body: `{error}`. */
const assemblyError = (body: unknown): string | null => stringField(body, 'error');

export class AssemblyAiProvider implements TranscriptionProvider {
  readonly name = 'AssemblyAI' as const;
  private readonly http: ProviderHttp;

  constructor(private readonly options: HostedClientOptions) {
    this.http = new ProviderHttp(this.name, options.baseUrl, assemblyError, options.http ?? defaultHttpPolicy);
  }

  problemWith(options: TranscriptionOptions): string | null {
    return hostedProblems(options, 'audio_url');
  }

  async transcribe(request: TranscriptionRequest): Promise<ProviderTranscript> {
    const { audioUrl, apiKey } = hostedJob(this, request);
    const headers = { authorization: apiKey };
    const body = { speaker_labels: true, ...(request.language ? { language_code: request.language } : {}), ...request.customParams, audio_url: audioUrl };
    const jobId = await jobToWaitFor(request, async () =>
      decodeAnswer(this.name, Transcript, await this.http.json({ method: 'POST', path: '/v2/transcript', headers, body, signal: request.signal, secret: apiKey }), 'the created transcript').id,
    );
    const path = `/v2/transcript/${encodeURIComponent(jobId)}`;
    const { transcript, raw } = await pollJob(
      this.name,
      jobId,
      async () => {
        const raw = await this.http.json({ method: 'GET', path, headers, signal: request.signal, secret: apiKey });
        const transcript = decodeAnswer(this.name, Transcript, raw, 'the transcript');
        if (transcript.status === 'error') throw new TranscriptionFailed(this.name, `transcript ${jobId} failed: ${transcript.error ?? 'no reason given'}`);
        return transcript.status === 'completed' ? jobDone({ transcript, raw }) : jobPending(transcript.status);
      },
      this.options.poll ?? defaultPollPolicy,
      request.signal,
    );
    return { provider: this.name, jobIds: [jobId], raw, ...normalise(transcript, request.language ?? null) };
  }
}

const normalise = (transcript: Transcript, asked: string | null): Pick<ProviderTranscript, 'words' | 'language' | 'duration'> => {
  const words: RecognizedWord[] = (transcript.words ?? []).map((w) => ({
    word: w.text.trim(),
    start: w.start / 1000,
    end: w.end / 1000,
    confidence: w.confidence ?? null,
    speaker_label: w.speaker ?? null,
  }));
  return {
    words: wordsInTimeOrder(words),
    language: transcript.language_code ?? asked,
    duration: transcript.audio_duration ?? null,
  };
};
