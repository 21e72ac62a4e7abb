/**
 * A local AssemblyAI v2 API (research B.3): `Authorization: <key>` (no scheme), `POST /v2/transcript`
 * answering the transcript `queued`, `GET /v2/transcript/{id}` going `processing`, then `completed`
 * (times in integer milliseconds, speakers "A", "B" when `speaker_labels`) or `error` with `error`.
 * Errors as `{error}`.
 */
import type { ServerResponse } from 'node:http';
import { confidenceOf, FakeProviderServer, mean, sendJson, textOf, utterancesOf, type AudioFetch, type FakeHandler, type FakeScript, type ScriptedWord } from './fake-provider-kit';

interface Job {
  readonly id: string;
  readonly params: Record<string, unknown>;
  readonly script: FakeScript;
  readonly audio: Promise<AudioFetch>;
  looks: number;
}

const letter = (speaker: number) => String.fromCharCode(65 + speaker);
const ms = (seconds: number) => Math.round(seconds * 1000);

export class AssemblyAiFake extends FakeProviderServer {
  private readonly jobs = new Map<string, Job>();

  protected unavailable(res: ServerResponse): void {
    sendJson(res, 503, { error: 'Service Unavailable' });
  }

  protected handle: FakeHandler = async (req, body, _raw, res) => {
    if (req.headers.authorization !== this.apiKey) return sendJson(res, 401, { error: 'Authentication error, API token missing/invalid' });
    if (req.method === 'POST' && req.path === '/v2/transcript') return this.create(body, res);
    const m = /^\/v2\/transcript\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && m) return this.look(decodeURIComponent(m[1]!), res);
    sendJson(res, 404, { error: 'Not found' });
  };

  private create(body: unknown, res: ServerResponse): void {
    const params = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof params.audio_url !== 'string') return sendJson(res, 400, { error: 'audio_url is required' });
    if (params.speaker_labels !== undefined && typeof params.speaker_labels !== 'boolean') return sendJson(res, 400, { error: 'speaker_labels must be a boolean' });
    const id = this.newId();
    const job: Job = { id, params, script: this.script, audio: this.fetchAudio(params.audio_url), looks: 0 };
    this.jobs.set(id, job);
    sendJson(res, 200, this.transcriptOf(job, 'queued'));
  }

  private async look(id: string, res: ServerResponse): Promise<void> {
    const job = this.jobs.get(id);
    if (!job) return sendJson(res, 404, { error: 'Transcript lookup error, transcript id not found' });
    job.looks++;
    if (this.stillWorking(job.script, job.looks)) return sendJson(res, 200, this.transcriptOf(job, job.looks === 1 ? 'queued' : 'processing'));
    const audio = await job.audio;
    if (!audio.ok) {
      const error = `Download error, unable to download ${job.params.audio_url}. Please make sure the file exists and is accessible from the internet.`;
      return sendJson(res, 200, { ...this.transcriptOf(job, 'error'), error });
    }
    if (job.script.failJob) return sendJson(res, 200, { ...this.transcriptOf(job, 'error'), error: 'Transcoding failed. File does not appear to contain audio.' });
    sendJson(res, 200, this.transcriptOf(job, 'completed'));
  }

  private transcriptOf(job: Job, status: 'queued' | 'processing' | 'completed' | 'error') {
    const done = status === 'completed';
    const labels = job.params.speaker_labels === true;
    const { words, language } = job.script;
    const wordOf = (w: ScriptedWord) => ({ text: w.word, start: ms(w.start), end: ms(w.end), confidence: confidenceOf(w), speaker: labels ? letter(w.speaker) : null, channel: null });
    return {
      id: job.id,
      language_model: 'assemblyai_default',
      acoustic_model: 'assemblyai_default',
      language_code: (job.params.language_code as string | undefined) ?? language,
      status,
      audio_url: job.params.audio_url,
      text: done ? textOf(words) : null,
      words: done ? words.map(wordOf) : null,
      utterances:
        done && labels
          ? utterancesOf(words).map((group) => ({
              speaker: letter(group[0]!.speaker),
              start: ms(group[0]!.start),
              end: ms(group[group.length - 1]!.end),
              confidence: mean(group.map(confidenceOf)),
              text: textOf(group),
              words: group.map(wordOf),
            }))
          : null,
      confidence: done ? mean(words.map(confidenceOf)) : null,
      // whole seconds, as AssemblyAI gives it
      audio_duration: done ? Math.round(words.reduce((end, w) => Math.max(end, w.end), 0)) : null,
      punctuate: true,
      format_text: true,
      speaker_labels: labels,
      webhook_url: (job.params.webhook_url as string | undefined) ?? null,
      webhook_status_code: null,
      webhook_auth: false,
      error: null as string | null,
    };
  }
}
