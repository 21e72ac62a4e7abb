import type { BotReport } from '../../contract/bot-contract';

/** Sends the bot's reports (statuses, artifacts, the one EndReport) to whoever runs it. */
export interface Reporter {
  report(report: BotReport): Promise<void>;
}
