/**
 * A local Gladia v2 pre-recorded API (research B.1): `x-gladia-key`, `POST /v2/pre-recorded` (JSON
 * only, `audio_url` required) -> 201 `{id, result_url}`, `GET /v2/pre-recorded/{id}` going `queued`,
 * `processing`, then `done` with `result.transcription.utterances` (seconds, integer `speaker` when
 * `diarization` is on) or `error` with `error_code`. Errors in Gladia's body
 * `{timestamp, path, request_id, statusCode, message, validation_errors?}`.
 */
import type { ServerResponse } from 'node:http';
import {
  confidenceOf,
  FakeProviderServer,
  mean,
  sendJson,
  textOf,
  utterancesOf,
  type AudioFetch,
  type FakeHandler,
  type FakeScript,
} from './fake-provider-kit';

interface Job {
  readonly id: string;
  readonly created_at: string;
  readonly params: Record<string, unknown>;
  readonly script: FakeScript;
  readonly audio: Promise<AudioFetch>;
  looks: number;
}

export class GladiaFake extends FakeProviderServer {
  private readonly jobs = new Map<string, Job>();

  private error(res: ServerResponse, status: number, path: string, message: string, validation_errors?: string[]): void {
    sendJson(res, status, {
      timestamp: new Date().toISOString(),
      path,
      request_id: `G-${this.newId().slice(0, 8)}`,
      statusCode: status,
      message,
      ...(validation_errors ? { validation_errors } : {}),
    });
  }

  protected unavailable(res: ServerResponse, path: string): void {
    this.error(res, 503, path, 'Service Unavailable');
  }

  protected handle: FakeHandler = async (req, body, _raw, res) => {
    if (req.headers['x-gladia-key'] !== this.apiKey) return this.error(res, 401, req.path, 'Invalid or missing API key');
    if (req.method === 'POST' && req.path === '/v2/pre-recorded') return this.create(req.headers['content-type'] ?? '', body, res);
    const m = /^\/v2\/pre-recorded\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && m) return this.look(decodeURIComponent(m[1]!), req.path, res);
    this.error(res, 404, req.path, `Cannot ${req.method} ${req.path}`);
  };

  private create(contentType: string, body: unknown, res: ServerResponse): void {
    const path = '/v2/pre-recorded';
    if (!contentType.startsWith('application/json')) return this.error(res, 415, path, 'Content-Type must be application/json');
    const params = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const problems: string[] = [];
    if (typeof params.audio_url !== 'string' || !/^https?:\/\//.test(params.audio_url)) problems.push('audio_url must be a URL address');
    if (params.diarization !== undefined && typeof params.diarization !== 'boolean') problems.push('diarization must be a boolean value');
    const languages = (params.language_config as { languages?: unknown } | undefined)?.languages;
    if (languages !== undefined && !(Array.isArray(languages) && languages.every((l) => typeof l === 'string'))) problems.push('language_config.languages must be an array of strings');
    if (problems.length > 0) return this.error(res, 400, path, 'Bad Request', problems);
    const id = this.newId();
    this.jobs.set(id, { id, created_at: new Date().toISOString(), params, script: this.script, audio: this.fetchAudio(params.audio_url as string), looks: 0 });
    sendJson(res, 201, { id, result_url: `${this.url}/v2/pre-recorded/${id}` });
  }

  private async look(id: string, path: string, res: ServerResponse): Promise<void> {
    const job = this.jobs.get(id);
    if (!job) return this.error(res, 404, path, `No pre-recorded job with id ${id}`);
    job.looks++;
    const base = { id, request_id: `G-${id.slice(0, 8)}`, version: 2, created_at: job.created_at, kind: 'pre-recorded', custom_metadata: job.params.custom_metadata ?? null, post_session_metadata: {} };
    if (this.stillWorking(job.script, job.looks)) return sendJson(res, 200, { ...base, status: job.looks === 1 ? 'queued' : 'processing', completed_at: null, error_code: null, file: null, request_params: job.params, result: null });
    const audio = await job.audio;
    const completed_at = new Date().toISOString();
    // a file it could not download fails the job as a bad request; a scripted failure as its own error
    if (!audio.ok || job.script.failJob) {
      return sendJson(res, 200, { ...base, status: 'error', completed_at, error_code: audio.ok ? 500 : 400, file: null, request_params: null, result: null });
    }
    sendJson(res, 200, { ...base, status: 'done', completed_at, error_code: null, file: this.fileOf(job, audio), request_params: job.params, result: this.resultOf(job) });
  }

  private fileOf(job: Job, audio: AudioFetch) {
    const duration = job.script.words.reduce((end, w) => Math.max(end, w.end), 0);
    return { id: this.newId(), filename: 'recording', source: job.params.audio_url, audio_duration: duration, number_of_channels: 1, size: audio.bytes };
  }

  private resultOf(job: Job) {
    const diarize = job.params.diarization === true;
    const { words, language } = job.script;
    const duration = words.reduce((end, w) => Math.max(end, w.end), 0);
    const utterances = utterancesOf(words).map((group) => ({
      start: group[0]!.start,
      end: group[group.length - 1]!.end,
      confidence: mean(group.map(confidenceOf)),
      channel: 0,
      ...(diarize ? { speaker: group[0]!.speaker } : {}),
      // Gladia's words carry the space that precedes them
      words: group.map((w, i) => ({ word: i === 0 ? w.word : ` ${w.word}`, start: w.start, end: w.end, confidence: confidenceOf(w) })),
      text: textOf(group),
      language,
    }));
    return {
      metadata: { audio_duration: duration, number_of_distinct_channels: 1, billing_time: duration, transcription_time: 0.5 },
      transcription: { full_transcript: textOf(words), languages: [language], utterances },
    };
  }
}
