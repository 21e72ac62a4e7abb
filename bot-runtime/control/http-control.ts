import { internalPaths, type ControlRequest, type ControlResult } from '../../contract/bot-contract';
import { callService, type HttpTarget } from '../http-client';
import type { ControlChannel, ControlHandler } from './control-channel';

/** Waits `ms`, or less if `signal` aborts; the abort listener is removed either way. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Long-polls `GET /internal/bots/{bot_id}/control?wait_seconds=N` and posts each answer to
 * `/control/{request_id}/result`. Requests are handled concurrently with the poll (a slow chat send
 * does not hold the next request); a request id seen twice is answered again without running twice.
 */
export class HttpControl implements ControlChannel {
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;
  private readonly handled = new Map<string, Promise<ControlResult>>();
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly target: HttpTarget,
    private readonly botId: string,
    private readonly opts: {
      waitSeconds?: number;
      log?: (msg: string) => void;
      /** pause after a failed poll: base * 2^failures (failures counted up to 5), at most max; default 500 ms, 10 s */
      retryDelayMs?: { readonly base: number; readonly max: number };
      /** polls failing for this long in a row: the service is gone for good */
      serviceLostAfterMs?: number;
      onServiceLost?: () => void;
    } = {},
  ) {}

  start(handler: ControlHandler): void {
    if (this.loop) return;
    this.loop = this.poll(handler);
  }

  private async poll(handler: ControlHandler): Promise<void> {
    const wait = this.opts.waitSeconds ?? 20;
    let failures = 0;
    let failingSinceMs: number | null = null;
    let lostReported = false;
    while (!this.abort.signal.aborted) {
      try {
        const res = await callService(this.target, 'GET', `${internalPaths.control(this.botId)}?wait_seconds=${wait}`, {
          timeoutMs: (wait + 15) * 1000,
          retries: 0,
          signal: this.abort.signal,
        });
        const body = (await res.json()) as { requests?: ControlRequest[] };
        failures = 0;
        failingSinceMs = null;
        for (const request of body.requests ?? []) this.dispatch(request, handler);
      } catch (err) {
        if (this.abort.signal.aborted) break;
        failures++;
        failingSinceMs ??= Date.now();
        if (!lostReported && this.opts.serviceLostAfterMs !== undefined && Date.now() - failingSinceMs >= this.opts.serviceLostAfterMs) {
          lostReported = true;
          this.opts.log?.(`the service has not answered for ${Math.round((Date.now() - failingSinceMs) / 1000)} s: it is gone`);
          this.opts.onServiceLost?.();
        }
        this.opts.log?.(`control poll failed (${failures}): ${(err as Error).message}`);
        const delay = this.opts.retryDelayMs ?? { base: 500, max: 10_000 };
        await sleep(Math.min(delay.max, delay.base * 2 ** Math.min(failures, 5)), this.abort.signal);
      }
    }
  }

  private dispatch(request: ControlRequest, handler: ControlHandler): void {
    let result = this.handled.get(request.id);
    if (!result) {
      result = handler(request).catch(
        (err): ControlResult => ({ id: request.id, ok: false, reason: 'failed', message: (err as Error).message }),
      );
      this.handled.set(request.id, result);
    }
    const task = result
      .then((r) =>
        callService(this.target, 'POST', internalPaths.controlResult(this.botId, request.id), {
          body: JSON.stringify(r),
          contentType: 'application/json',
        }),
      )
      .then(
        () => undefined,
        (err) => this.opts.log?.(`control result ${request.id} not delivered: ${(err as Error).message}`),
      );
    this.inflight.add(task);
    void task.finally(() => this.inflight.delete(task));
  }

  /** Stops polling; answers already being computed are still delivered. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await Promise.allSettled([...this.inflight]);
  }
}
