import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { ReadStore } from '../adapters/read-store/port';
import { failUnreportedBot, handleBotCommand } from '../commands/bot-commands';
import type { CommandDeps } from '../commands/command-deps';
import { recordInstanceAlive } from '../commands/instance-commands';
import { isInstanceGone } from '../domain/instances/instance-decider';
import { BOTS, type BotView } from '../projections/bot-view';
import { INSTANCES, type InstanceView } from '../projections/instance-view';

export interface RunningBotsWatchDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  /** this instance */
  readonly workerId: string;
  readonly log: Logger;
  /** when the bot last called this service process, if ever */
  readonly lastContactMs: (botId: string) => number | null;
  readonly forgetControl: (botId: string) => void;
  /** bots this process started itself: their exit tells when they die, they need no watching */
  readonly isChild: (botId: string) => boolean;
  /** a watched bot silent this long is lost (default 2 min: a bot polls every 20 s) */
  readonly lostAfterMs?: number;
  /** how often the watch looks (default 10 s) */
  readonly sweepMs?: number;
}

/**
 * What a restart does to running bots. Bot processes outlive the service process that started them (a
 * crash or a deploy does not end a meeting), so a starting instance takes over the bots its previous run
 * was running, and any instance takes over the bots of an instance gone for good (silent for 15 minutes).
 * A bot taken over is watched by its calls to the service: one that calls is alive and ends as it
 * reports; one silent for `lostAfterMs` is failed and its reservation released (SIGTERM if it never
 * called: its process ended with the old one; GENERAL_ERROR if it went silent), so no bot waits forever.
 * The instance records that it is alive as it goes (every few minutes), which is how others tell.
 */
export class RunningBotsWatch {
  /** bots without a process of ours, by when we started to watch them */
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

  /** The bots this instance watches by their calls (operators and tests). */
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
    const { commands, workerId } = this.deps;
    await recordInstanceAlive(commands, workerId);
    const nowMs = commands.clock().getTime();
    const active = await this.deps.readStore.find<BotView>(BOTS, { where: { ended_at: null, dispatched: true } });
    const instances = new Map((await this.deps.readStore.find<InstanceView>(INSTANCES, {})).map((i) => [i.id, i.last_alive_at]));

    const stillActive = new Set<string>();
    for (const bot of active) {
      stillActive.add(bot.bot_id);
      if (bot.worker_id === workerId) {
        if (!this.deps.isChild(bot.bot_id) && !this.watched.has(bot.bot_id)) this.watched.set(bot.bot_id, { sinceMs: nowMs });
      } else if (bot.worker_id !== null && isInstanceGone(instances.get(bot.worker_id) ?? null, nowMs, bot.created_at)) {
        await this.takeOver(bot, nowMs);
      }
    }
    for (const botId of this.watched.keys()) if (!stillActive.has(botId)) this.watched.delete(botId);
    for (const [botId, { sinceMs }] of this.watched) await this.endIfLost(botId, sinceMs, nowMs);
  }

  private async takeOver(bot: BotView, nowMs: number): Promise<void> {
    const taken = await handleBotCommand(this.deps.commands, bot.bot_id, {
      type: 'ReassignBot',
      from_worker_id: bot.worker_id!,
      worker_id: this.deps.workerId,
      now: new Date(nowMs).toISOString(),
    });
    if (E.isRight(taken) && taken.right.events.length > 0) {
      this.deps.log.warn({ bot_id: bot.bot_id, from_worker_id: bot.worker_id }, 'took over a bot of an instance that is gone');
      this.watched.set(bot.bot_id, { sinceMs: nowMs });
    }
  }

  private async endIfLost(botId: string, sinceMs: number, nowMs: number): Promise<void> {
    const contact = this.deps.lastContactMs(botId);
    const heard = contact !== null && contact >= sinceMs;
    if (nowMs - (heard ? contact : sinceMs) < this.lostAfterMs) return;
    const [error_code, error_message] = heard
      ? ['GENERAL_ERROR', 'The bot stopped answering the service.']
      : ['SIGTERM', 'The bot did not come back after the service restarted: its process ended with the service.'];
    await failUnreportedBot(this.deps.commands, botId, error_code, error_message);
    this.deps.log.warn({ bot_id: botId, error_code }, 'a watched bot is lost');
    this.watched.delete(botId);
    this.deps.forgetControl(botId);
  }
}
