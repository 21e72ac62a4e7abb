/**
 * Gladia v2 pre-recorded (research B.1): `POST /v2/pre-recorded` with the audio's signed URL (unless the
 * request already has its job), then `GET /v2/pre-recorded/{id}` until `done` or `error`. Header
 * `x-gladia-key`. Times in seconds; an integer `speaker` on each utterance when `diarization` is on.
 */
import * as t from 'io-ts';
import type { RecognizedWord } from '../../domain/transcription/transcript';
import { hostedProblems } from './options-problems';
import { hostedJob, jobToWaitFor, optional, wordsInTimeOrder, type HostedClientOptions } from './hosted-provider-kit';
import { decodeAnswer, defaultPollPolicy, jobDone, jobPending, pollJob } from './poll-job';
import { defaultHttpPolicy, ProviderHttp, stringField } from './provider-http';
import { TranscriptionFailed, type ProviderTranscript, type TranscriptionOptions, type TranscriptionProvider, type TranscriptionRequest } from './port';

export const GLADIA_DEFAULT_URL = 'https://api.gladia.io';

const Created = t.type({ id: t.string });

const Word = t.type({ word: t.string, start: t.number, end: t.number, confidence: t.union([t.number, t.undefined, t.null]) });
const Utterance = t.type({ words: t.array(Word), speaker: t.union([t.number, t.undefined, t.null]) });
const Job = t.type({
  status: t.keyof({ queued: null, processing: null, done: null, error: null }),
  error_code: t.union([t.number, t.undefined, t.null]),
  result: t.union([
    t.type({
      metadata: t.union([t.type({ audio_duration: t.union([t.number, t.undefined]) }), t.undefined, t.null]),
      transcription: t.type({ languages: t.union([t.array(t.string), t.undefined]), utterances: t.array(Utterance) }),
    }),
    t.undefined,
    t.null,
  ]),
});
type Job = t.TypeOf<typeof Job>;

/** Gladia's error body: `{timestamp, path, request_id, statusCode, message, validation_errors?}`. */
const gladiaError = (body: unknown): string | null => {
  const message = stringField(body, 'message');
  const validation = (body as { validation_errors?: unknown }).validation_errors;
  return message && Array.isArray(validation) && validation.length > 0 ? `${message} (${validation.join('; ')})` : message;
};

export class GladiaProvider implements TranscriptionProvider {
  readonly name = 'Gladia' as const;
  private readonly http: ProviderHttp;

  constructor(private readonly options: HostedClientOptions) {
    this.http = new ProviderHttp(this.name, options.baseUrl, gladiaError, options.http ?? defaultHttpPolicy);
  }

  problemWith(options: TranscriptionOptions): string | null {
    return hostedProblems(options, 'audio_url');
  }

  async transcribe(request: TranscriptionRequest): Promise<ProviderTranscript> {
    const { audioUrl, apiKey } = hostedJob(this, request);
    const headers = { 'x-gladia-key': apiKey };
    const body = {
      diarization: true,
      ...(request.language ? { language_config: { languages: [request.language], code_switching: false } } : {}),
      ...request.customParams,
      audio_url: audioUrl,
    };
    const jobId = await jobToWaitFor(request, async () =>
      decodeAnswer(this.name, Created, await this.http.json({ method: 'POST', path: '/v2/pre-recorded', headers, body, signal: request.signal, secret: apiKey }), 'the created job').id,
    );
    const path = `/v2/pre-recorded/${encodeURIComponent(jobId)}`;
    const { job, raw } = await pollJob(
      this.name,
      jobId,
      async () => {
        const raw = await this.http.json({ method: 'GET', path, headers, signal: request.signal, secret: apiKey });
        const job = decodeAnswer(this.name, Job, raw, 'the job');
        if (job.status === 'error') throw new TranscriptionFailed(this.name, `job ${jobId} failed with error code ${job.error_code ?? 'none'}`, job.error_code ?? null);
        return job.status === 'done' ? jobDone({ job, raw }) : jobPending(job.status);
      },
      this.options.poll ?? defaultPollPolicy,
      request.signal,
    );
    return { provider: this.name, jobIds: [jobId], raw, ...normalise(job, request.language ?? null) };
  }
}

const normalise = (job: Job, asked: string | null): Pick<ProviderTranscript, 'words' | 'language' | 'duration'> => {
  if (!job.result) throw new TranscriptionFailed('Gladia', 'the job is done but has no result');
  const words: RecognizedWord[] = job.result.transcription.utterances.flatMap((u) =>
    u.words.map((w) => ({
      word: w.word.trim(),
      start: w.start,
      end: w.end,
      confidence: w.confidence ?? null,
      speaker_label: u.speaker === undefined || u.speaker === null ? null : String(u.speaker),
    })),
  );
  return {
    words: wordsInTimeOrder(words),
    language: job.result.transcription.languages?.[0] ?? asked,
    duration: job.result.metadata?.audio_duration ?? null,
  };
};
