/**
 * What the fake transcription providers share: a local HTTP server that records what it was sent, the
 * script of what the fake "hears", and fetching the audio from its signed URL as the real ones do.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A word the fake pretends to recognise: seconds, and the provider's speaker number (from 0). */
export interface ScriptedWord {
  /** as the provider would write it, e.g. "Morning," */
  readonly word: string;
  readonly start: number;
  readonly end: number;
  readonly speaker: number;
  readonly confidence?: number;
}

export interface FakeScript {
  readonly words: readonly ScriptedWord[];
  readonly language: string;
  /** looks at a job that answer it is still waiting or working, before it is done */
  readonly pendingLooks: number;
  /** the job fails (the provider's own failure for it) */
  readonly failJob: boolean;
  /** the first requests this many answer 503 */
  readonly unavailableTimes: number;
}

export const defaultScript: FakeScript = { words: [], language: 'en', pendingLooks: 2, failJob: false, unavailableTimes: 0 };

export interface RecordedRequest {
  readonly method: string;
  /** path and query */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

export interface RecordedAnswer {
  readonly url: string;
  readonly status: number;
  readonly body: unknown;
}

export interface AudioFetch {
  readonly ok: boolean;
  readonly status: number | null;
  readonly bytes: number;
  readonly reason: string;
}

/** GETs the audio as a provider's downloader would. */
export const fetchAudio = async (url: string): Promise<AudioFetch> => {
  try {
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    return { ok: res.ok && body.length > 0, status: res.status, bytes: body.length, reason: `${res.status} ${res.statusText}` };
  } catch (err) {
    return { ok: false, status: null, bytes: 0, reason: (err as Error).message };
  }
};

/** Consecutive words of one speaker, as the providers group them into utterances. */
export const utterancesOf = (words: readonly ScriptedWord[]): ScriptedWord[][] => {
  const groups: ScriptedWord[][] = [];
  for (const w of words) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.speaker === w.speaker) last.push(w);
    else groups.push([w]);
  }
  return groups;
};

export const plainWord = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
export const textOf = (words: readonly ScriptedWord[]) => words.map((w) => w.word).join(' ');
export const confidenceOf = (w: ScriptedWord) => w.confidence ?? 0.95;
export const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

export type FakeHandler = (req: IncomingMessage & { readonly path: string; readonly query: URLSearchParams }, body: unknown, rawBody: string, res: ServerResponse) => Promise<void>;

/** A fake provider's server: records requests, answers 503 while `unavailableTimes` lasts, then hands over. */
export abstract class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  /** what it answered, in order: a client's raw output must be one of these verbatim */
  readonly answers: RecordedAnswer[] = [];
  readonly audioFetches: AudioFetch[] = [];
  script: FakeScript = defaultScript;
  /** While set, every job looked at is still working, whatever its script: a test holds jobs in flight. */
  holdJobs = false;
  private server: Server | null = null;
  private answered = 0;
  url = '';

  constructor(readonly apiKey: string) {}

  /** The provider's answer to a request while it is "unavailable". */
  protected abstract unavailable(res: ServerResponse, path: string): void;
  protected abstract handle: FakeHandler;

  setScript(script: Partial<FakeScript>): this {
    this.script = { ...defaultScript, ...script };
    this.answered = 0;
    return this;
  }

  /** Whether a job looked at for the `looks`-th time is still working. */
  protected stillWorking(script: FakeScript, looks: number): boolean {
    return this.holdJobs || looks <= script.pendingLooks;
  }

  /** Fetches the audio and remembers how it went. */
  protected async fetchAudio(url: string): Promise<AudioFetch> {
    const result = await fetchAudio(url);
    this.audioFetches.push(result);
    return result;
  }

  protected newId(): string {
    return randomUUID();
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: unknown = undefined;
        try {
          body = rawBody ? JSON.parse(rawBody) : undefined;
        } catch {
          body = undefined;
        }
        const url = new URL(req.url ?? '/', 'http://fake.invalid');
        const end = res.end.bind(res);
        res.end = ((text?: string) => {
          this.answers.push({ url: url.pathname + url.search, status: res.statusCode, body: text ? JSON.parse(text) : undefined });
          return end(text);
        }) as typeof res.end;
        this.requests.push({ method: req.method ?? 'GET', url: url.pathname + url.search, headers: req.headers, body });
        if (this.answered++ < this.script.unavailableTimes) return this.unavailable(res, url.pathname);
        Object.assign(req, { path: url.pathname, query: url.searchParams });
        this.handle(req as IncomingMessage & { path: string; query: URLSearchParams }, body, rawBody, res).catch((err: Error) => {
          if (!res.headersSent) sendJson(res, 500, { error: `fake failed: ${err.message}` });
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
