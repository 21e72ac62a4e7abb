/**
 * JSON over HTTPS to a hosted provider: transient failures (network, 408, 429, 5xx) are retried with
 * backoff, as the providers' own SDKs do; anything else ends the transcription with the provider's own
 * words. No message ever carries the key.
 */
import { TranscriptionFailed, type ProviderName } from './port';

export interface HttpPolicy {
  /** tries per call, the first included */
  readonly attempts: number;
  /** wait before the first retry; doubles each time (a 429's Retry-After wins, up to a minute) */
  readonly backoffMs: number;
  /** one request's time limit */
  readonly requestTimeoutMs: number;
}

export const defaultHttpPolicy: HttpPolicy = { attempts: 4, backoffMs: 1000, requestTimeoutMs: 60_000 };

const transient = (status: number): boolean => status === 408 || status === 429 || status >= 500;

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface JsonCall {
  readonly method: 'GET' | 'POST';
  /** path and query, appended to the base URL */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** instead of the policy's request time limit (a synchronous transcription takes a while) */
  readonly timeoutMs?: number;
  /** the key the call carries: should the provider's answer quote it, the message will not */
  readonly secret: string;
}

export class ProviderHttp {
  private readonly baseUrl: string;

  constructor(
    private readonly provider: ProviderName,
    baseUrl: string,
    /** the provider's error message in one of its error bodies, or null */
    private readonly errorMessageOf: (body: unknown) => string | null,
    private readonly policy: HttpPolicy = defaultHttpPolicy,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private fail(message: string, status: number | null = null): TranscriptionFailed {
    return new TranscriptionFailed(this.provider, message, status);
  }

  /** The 2xx answer's JSON body; throws TranscriptionFailed otherwise. */
  async json(call: JsonCall): Promise<unknown> {
    const what = `${call.method} ${call.path.split('?')[0]}`;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.policy.attempts;
      let res: Response;
      try {
        const timeout = AbortSignal.timeout(call.timeoutMs ?? this.policy.requestTimeoutMs);
        res = await fetch(this.baseUrl + call.path, {
          method: call.method,
          headers: { accept: 'application/json', ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
        });
      } catch (err) {
        if (call.signal?.aborted) throw this.fail('stopped before the provider answered');
        if (last) throw this.fail(`${what}: could not reach ${this.baseUrl} (${reasonOf(err)})`);
        await this.pause(attempt, null, call.signal);
        continue;
      }
      const text = await res.text().catch(() => '');
      const body = parseJson(text);
      if (res.ok) {
        if (body === undefined) throw this.fail(`${what}: answered ${res.status} with a body that is not JSON`, res.status);
        return body;
      }
      if (transient(res.status) && !last) {
        await this.pause(attempt, res.headers.get('retry-after'), call.signal);
        continue;
      }
      const said = ((body === undefined ? null : this.errorMessageOf(body)) ?? (text.trim().slice(0, 200) || res.statusText)).replaceAll(call.secret, '[key]');
      throw this.fail(`${what} answered ${res.status}: ${said}`, res.status);
    }
  }

  private async pause(attempt: number, retryAfter: string | null, signal?: AbortSignal): Promise<void> {
    const asked = retryAfter !== null && /^\d+$/.test(retryAfter) ? Math.min(Number(retryAfter) * 1000, 60_000) : null;
    try {
      await sleep(asked ?? this.policy.backoffMs * 2 ** (attempt - 1), signal);
    } catch {
      throw this.fail('stopped while waiting to retry');
    }
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const reasonOf = (err: unknown): string => {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
};

/** `field` of a JSON object as a string, if it is one. */
export const stringField = (body: unknown, field: string): string | null => {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : null;
};
