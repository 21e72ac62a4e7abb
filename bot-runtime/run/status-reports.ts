/**
 * The live statuses of a run. Every tick sees the screen again, so a status is reported only when it
 * is news: each once, except that recording_paused and recording_resumed alternate as often as the
 * host withdraws and grants the permission. The run does not wait for the service to take a report (it
 * may be restarting): reports keep their order in the reporter; a failed one is logged; the run goes on.
 */
import type { BotLog } from '../bot-log';
import type { LiveStatus } from '../../contract/bot-contract';
import type { Reporter } from '../reporters/reporter';

export class StatusReports {
  private readonly reported = new Set<LiveStatus>();
  private last: LiveStatus | null = null;

  constructor(
    private readonly reporter: Reporter,
    private readonly log: BotLog,
  ) {}

  /** `atMs`: when it happened, if not now (recording began when the recorder started, before it answered). */
  async report(status: LiveStatus, atMs: number = Date.now()): Promise<void> {
    if (this.reported.has(status) && status !== 'recording_paused' && status !== 'recording_resumed') return;
    if (status === this.last) return;
    this.reported.add(status);
    this.last = status;
    this.log.info(`status ${status}`);
    this.reporter
      .report({ kind: 'status', status, at: new Date(atMs).toISOString() })
      .catch((err) => this.log.error(`status report ${status} failed: ${(err as Error).message}`));
  }
}
