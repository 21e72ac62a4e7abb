import type Logger from 'bunyan';
import type { ReadStore } from '../adapters/read-store/port';
import { failUnreportedBot } from '../commands/bot-commands';
import type { BotContacts } from '../commands/bot-contacts';
import type { CommandDeps } from '../commands/command-deps';
import { BOTS, type BotView } from '../projections/bot-view';

export interface RunningBotsWatchDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  /** this worker (INSTANCE_ID) */
  readonly workerId: string;
  readonly log: Logger;
  readonly contacts: BotContacts;
  /** bots this process started itself: their exit tells when they die, they need no watching */
  readonly isChild: (botId: string) => boolean;
  /** a watched bot silent this long is lost (default 2 min: a bot polls every 20 s, and retries a restarting service) */
  readonly lostAfterMs?: number;
  /** how often the watch looks (default 10 s) */
  readonly sweepMs?: number;
}

/**
 * What a restart does to this worker's running bots. Bot processes outlive the service process that
 * started them (a crash or a deploy does not end a meeting), so a worker starting again under the same
 * INSTANCE_ID watches the bots its previous run was running, by their calls to the service (on any api
 * instance): one that calls is alive and ends as it reports; one silent for `lostAfterMs` is failed and
 * its reservation released (SIGTERM if it never called since: its process ended with the old one;
 * GENERAL_ERROR if it went silent later), so no bot waits forever.
 */
export class RunningBotsWatch {
  /** bots of ours without a process of ours, by when we started to watch them */
  private readonly watched = new Map<string, { readonly sinceMs: number }>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly lostAfterMs: number;

  constructor(private readonly deps: RunningBotsWatchDeps) {
    this.lostAfterMs = deps.lostAfterMs ?? 2 * 60 * 1000;
  }

  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.deps.sweepMs ?? 10_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  /** The bots this worker watches by their calls (operators and tests). */
  get watchedBots(): string[] {
    return [...this.watched.keys()];
  }

  private sweep(): Promise<void> {
    this.sweeping ??= this.look()
      .catch((err) => this.deps.log.error({ err }, 'watching running bots failed; next look soon'))
      .finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async look(): Promise<void> {
    const nowMs = this.deps.commands.clock().getTime();
    const ours = await this.deps.readStore.find<BotView>(BOTS, { where: { ended_at: null, dispatched: true, worker_id: this.deps.workerId } });
    const stillActive = new Set(ours.map((bot) => bot.bot_id));
    for (const bot of ours) if (!this.deps.isChild(bot.bot_id) && !this.watched.has(bot.bot_id)) this.watched.set(bot.bot_id, { sinceMs: nowMs });
    for (const botId of this.watched.keys()) if (!stillActive.has(botId)) this.watched.delete(botId);
    if (this.watched.size === 0) return;
    const contacts = await this.deps.contacts.lastContactsOf([...this.watched.keys()]);
    for (const [botId, { sinceMs }] of this.watched) await this.endIfLost(botId, sinceMs, contacts.get(botId) ?? null, nowMs);
  }

  private async endIfLost(botId: string, sinceMs: number, contact: number | null, nowMs: number): Promise<void> {
    const heard = contact !== null && contact >= sinceMs;
    if (nowMs - (heard ? contact : sinceMs) < this.lostAfterMs) return;
    const [error_code, error_message] = heard
      ? ['GENERAL_ERROR', 'The bot stopped answering the service.']
      : ['SIGTERM', 'The bot did not come back after the service restarted: its process ended with the service.'];
    await failUnreportedBot(this.deps.commands, botId, error_code, error_message);
    this.deps.log.warn({ bot_id: botId, error_code }, 'a watched bot is lost');
    this.watched.delete(botId);
    this.deps.contacts.forget(botId);
  }
}
