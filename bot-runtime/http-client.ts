/** Calls of the service's internal bot API (contract.ts): bearer token, JSON, bounded retries. */

export interface HttpTarget {
  readonly baseUrl: string;
  readonly token: string;
}

/**
 * How long a bot started by the service keeps trying to reach it before it gives up (the service restarts
 * in seconds; ten minutes without it means it is gone). `BOT_SERVICE_PATIENCE_SECONDS` overrides it.
 */
export const DEFAULT_SERVICE_PATIENCE_MS = 10 * 60 * 1000;

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** what the service answered (a refusal's JSON) */
    readonly body = '',
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 5xx, 429 and network errors are retried; 4xx are not. */
const retryable = (err: unknown) => !(err instanceof HttpStatusError) || err.status >= 500 || err.status === 429;

const bodyOf = (body: Buffer | string | (() => ReadableStream<Uint8Array>) | undefined): BodyInit | undefined => {
  if (typeof body === 'function') return body();
  if (Buffer.isBuffer(body)) return new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return body;
};

export const callService = async (
  target: HttpTarget,
  method: string,
  path: string,
  init: {
    /** a function for bodies that can only be read once (streams): called again on each attempt */
    body?: Buffer | string | (() => ReadableStream<Uint8Array>);
    contentType?: string;
    timeoutMs?: number;
    retries?: number;
    /**
     * Retry for this long instead of a number of times: while the service restarts, a bot waits for it
     * rather than lose what it reports.
     */
    retryForMs?: number;
    signal?: AbortSignal;
  } = {},
): Promise<Response> => {
  const retries = init.retries ?? 4;
  const startedMs = Date.now();
  const mayRetry = (attempt: number) => (init.retryForMs !== undefined ? Date.now() - startedMs < init.retryForMs : attempt < retries);
  for (let attempt = 0; ; attempt++) {
    try {
      const signals = [AbortSignal.timeout(init.timeoutMs ?? 30_000), ...(init.signal ? [init.signal] : [])];
      const res = await fetch(`${target.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${target.token}`,
          ...(init.contentType ? { 'content-type': init.contentType } : {}),
        },
        body: bodyOf(init.body),
        ...(typeof init.body === 'function' ? { duplex: 'half' } : {}),
        signal: AbortSignal.any(signals),
      });
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        throw new HttpStatusError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 200)}`, text);
      }
      return res;
    } catch (err) {
      if (init.signal?.aborted || !mayRetry(attempt) || !retryable(err)) throw err;
      await sleep(Math.min(5000, 250 * 2 ** attempt));
    }
  }
};
