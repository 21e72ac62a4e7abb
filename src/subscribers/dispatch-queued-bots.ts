import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import { keepSubscribed } from './keep-subscribed';
import type { EventStore, Subscription } from '../adapters/event-store/port';
import type { BotLauncher, LaunchedBot } from '../adapters/bot-launcher/port';
import { crashCodeOf } from '../adapters/bot-launcher/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { Signer } from '../adapters/signing/signer';
import { failUnreportedBot, handleBotCommand, loadBotFacts } from '../commands/bot-commands';
import type { CommandDeps } from '../commands/command-deps';
import { wasQueued } from '../domain/bot/bot-facts';
import { BOTS, type BotView } from '../projections/bot-view';
import type { UploadTarget } from '../../contract/bot-contract';
import type { BotStorage } from '../domain/bot/bot-config';
import { botJobFrom, type BotHostPolicy } from './bot-job';
import { followLog } from './follow-log';

/**
 * How long a bot's token holds: beyond the longest run there can be (up to 12 h in a waiting room, 12 h
 * in the call before recording, 12 h of recording: every timeout's ceiling; then leaving and uploading),
 * so that only a bot that is long gone could still hold a valid one. Its run's end refuses it before that.
 */
export const BOT_TOKEN_LIFETIME_SECONDS = 48 * 60 * 60;

export interface DispatcherDeps {
  readonly commands: CommandDeps;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly launcher: BotLauncher;
  readonly signer: Signer;
  readonly serviceUrl: string;
  /** where a bot uploads its artifacts, from the storage fixed at its creation */
  readonly uploadTarget: (storage: BotStorage, botId: string, token: string) => UploadTarget;
  /** what the service's settings let its bots do on their host */
  readonly botHost: BotHostPolicy;
  readonly slots: number;
  /** this instance, recorded on the bots it runs */
  readonly workerId: string;
  /** drops what the control channel holds for a bot whose process is gone */
  readonly forgetControl: (botId: string) => void;
  readonly log: Logger;
}

/**
 * Starts queued bots in free slots, oldest first, and turns a bot process that dies without its end
 * report into a failed bot with the crash code. Restart-safe: at start it re-reads the queue from the
 * read model. Bots already running when it starts (its previous run's, whose processes outlive it) are
 * not its children: RunningBotsWatch takes care of them.
 */
export class BotDispatcher {
  private readonly queue: string[] = [];
  private readonly running = new Map<string, LaunchedBot | null>();
  private readonly inFlight = new Set<Promise<void>>();
  private subscription: Subscription | null = null;
  private stopped = false;
  private graceMs = 15_000;

  constructor(private readonly deps: DispatcherDeps) {}

  async start(fromPosition: bigint | null): Promise<void> {
    const active = await this.deps.readStore.find<BotView>(BOTS, { where: { ended_at: null }, orderBy: [{ field: 'created_at', direction: 'asc' }] });
    // A scheduled bot is not queued before its time (its BotCreated queues it).
    for (const bot of active) if (!bot.dispatched && bot.status !== 'scheduled') this.queue.push(bot.bot_id);
    this.subscription = followLog(this.deps.eventStore, { name: 'dispatcher', fromPosition, log: this.deps.log }, (event) => {
      if (event.type !== 'BotCreated') return;
      const botId = event.data.bot_id;
      if (!this.queue.includes(botId) && !this.running.has(botId)) this.queue.push(botId);
      this.pump();
    });
    this.pump();
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** Whether this process started the bot and waits for its exit. */
  isRunningHere(botId: string): boolean {
    return this.running.has(botId);
  }

  /** The process id of a bot running on this machine (operators and tests). */
  pidOf(botId: string): number | undefined {
    return this.running.get(botId)?.pid ?? undefined;
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.deps.slots && this.queue.length > 0) {
      const botId = this.queue.shift()!;
      this.running.set(botId, null); // the slot is taken before the process exists
      const dispatching = this.dispatch(botId)
        .catch((err) => {
          this.deps.log.error({ err, bot_id: botId }, 'dispatch failed');
          this.running.delete(botId);
          this.pump();
        })
        .finally(() => this.inFlight.delete(dispatching));
      this.inFlight.add(dispatching);
    }
  }

  private async dispatch(botId: string): Promise<void> {
    const runId = this.deps.commands.newId();
    const dispatched = await handleBotCommand(this.deps.commands, botId, {
      type: 'DispatchBot',
      worker_id: this.deps.workerId,
      run_id: runId,
      now: this.deps.commands.clock().toISOString(),
    });
    // Nothing to do when the bot ended (left while queued) or another dispatcher took it.
    if (E.isLeft(dispatched) || dispatched.right.events.length === 0) {
      this.running.delete(botId);
      return this.pump();
    }
    // From here the bot is ours: whatever stops it from running must end it, or it would wait forever.
    if (this.stopped) {
      this.running.delete(botId);
      return this.endBot(botId, 'SIGTERM', 'The service stopped before the bot started');
    }
    let launched: LaunchedBot;
    try {
      launched = await this.launch(botId, runId);
    } catch (err) {
      this.deps.log.error({ err, bot_id: botId }, 'bot could not be started');
      this.running.delete(botId);
      await this.endBot(botId, 'INTERNAL_ERROR', `The bot could not be started: ${(err as Error).message}`);
      return this.pump();
    }
    this.running.set(botId, launched);
    if (this.stopped) this.terminate(launched); // stop() came while it was starting
    const exit = await launched.exited;
    this.running.delete(botId);
    this.deps.forgetControl(botId);
    await this.endBot(botId, crashCodeOf(exit), `The bot process exited (code ${exit.code}, signal ${exit.signal}) without reporting its end`);
    this.pump();
  }

  private async launch(botId: string, runId: string): Promise<LaunchedBot> {
    const bot = await loadBotFacts(this.deps.commands, botId);
    if (!wasQueued(bot)) throw new Error(`bot ${botId} was never queued`);
    const expiresAtSeconds = Math.floor(this.deps.commands.clock().getTime() / 1000) + BOT_TOKEN_LIFETIME_SECONDS;
    const token = this.deps.signer.botToken(botId, runId, expiresAtSeconds);
    const job = botJobFrom(bot, this.deps.uploadTarget(bot.run_config.storage, botId, token), this.deps.botHost);
    return this.deps.launcher.launch(job, { serviceUrl: this.deps.serviceUrl, botToken: token });
  }

  private async endBot(botId: string, error_code: string, error_message: string): Promise<void> {
    await failUnreportedBot(this.deps.commands, botId, error_code, error_message);
  }

  /**
   * Stops dispatching and ends the running bots: SIGTERM lets a bot store what it recorded and report its
   * end; one still running after `graceMs` is killed.
   */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopped = true;
    this.graceMs = graceMs;
    await this.subscription?.stop();
    for (const bot of this.running.values()) if (bot !== null) this.terminate(bot);
    // Every dispatch ends here, its bot's end recorded, before the stores it writes to are closed.
    await Promise.all([...this.inFlight]);
  }

  private terminate(bot: LaunchedBot): void {
    bot.kill('SIGTERM');
    const timer = setTimeout(() => bot.kill('SIGKILL'), this.graceMs);
    void bot.exited.then(() => clearTimeout(timer));
  }
}
