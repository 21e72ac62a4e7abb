import { internalPaths, type BotReport } from '../../contract/bot-contract';
import { callService, DEFAULT_SERVICE_PATIENCE_MS, type HttpTarget } from '../http-client';
import type { Reporter } from './reporter';

/**
 * Reports to the service: `POST /internal/bots/{bot_id}/reports`, in order (one at a time). A report the
 * service cannot take now (it restarts) is tried again for `retryForMs`, then given up.
 */
export class HttpReporter implements Reporter {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: HttpTarget,
    private readonly botId: string,
    private readonly retryForMs: number = DEFAULT_SERVICE_PATIENCE_MS,
  ) {}

  report(report: BotReport): Promise<void> {
    const send = async () => {
      await callService(this.target, 'POST', internalPaths.reports(this.botId), {
        body: JSON.stringify(report),
        contentType: 'application/json',
        retryForMs: this.retryForMs,
      });
    };
    const next = this.chain.then(send, send);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
