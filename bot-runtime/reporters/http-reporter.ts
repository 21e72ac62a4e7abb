import { internalPaths, type BotReport } from '../contract';
import { callService, type HttpTarget } from '../http-client';
import type { Reporter } from './reporter';

/** Reports to the service: `POST /internal/bots/{bot_id}/reports`, in order (one at a time). */
export class HttpReporter implements Reporter {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: HttpTarget,
    private readonly botId: string,
  ) {}

  report(report: BotReport): Promise<void> {
    const send = async () => {
      await callService(this.target, 'POST', internalPaths.reports(this.botId), {
        body: JSON.stringify(report),
        contentType: 'application/json',
        retries: report.kind === 'end' ? 8 : 4,
      });
    };
    const next = this.chain.then(send, send);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
