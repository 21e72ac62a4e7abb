import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { EventStore, Subscription } from '../adapters/event-store/port';
import type { BotLauncher, LaunchedBot } from '../adapters/bot-launcher/port';
import { crashCodeOf } from '../adapters/bot-launcher/crash-code';
import type { ReadStore } from '../adapters/read-store/port';
import type { Signer } from '../adapters/signing/signer';
import { handleBotCommand } from '../commands/bot-commands';
import type { CommandDeps } from '../commands/command-deps';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { BotCreated, botStreamName } from '../domain/bot/bot-events';
import { BOTS, type BotView } from '../projections/bot-view';
import { botJobFrom } from './bot-job';

export interface DispatcherDeps {
  readonly commands: CommandDeps;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly launcher: BotLauncher;
  readonly signer: Signer;
  readonly serviceUrl: string;
  readonly slots: number;
  readonly log: Logger;
}

/**
 * Starts queued bots in free slots, oldest first, and turns a bot process that dies without its end
 * report into a failed bot with the crash code. Restart-safe: at start it re-reads the queue from the
 * read model, and bots that a previous service process was running are failed (their process died with it).
 */
export class BotDispatcher {
  private readonly queue: string[] = [];
  private readonly running = new Map<string, LaunchedBot | null>();
  private subscription: Subscription | null = null;
  private stopped = false;

  constructor(private readonly deps: DispatcherDeps) {}

  async start(fromPosition: bigint | null): Promise<void> {
    const active = await this.deps.readStore.find<BotView>(BOTS, { where: { ended_at: null }, orderBy: [{ field: 'created_at', direction: 'asc' }] });
    for (const bot of active) {
      if (bot.dispatched) await this.failOrphan(bot.bot_id);
      else this.queue.push(bot.bot_id);
    }
    this.subscription = this.deps.eventStore.subscribeToAll(
      { ...(fromPosition === null ? {} : { fromPosition }), onError: (err) => this.deps.log.error({ err }, 'dispatcher subscription stopped') },
      async (recorded) => {
        if (recorded.type === 'BotCreated') {
          const botId = decodeRecordedEvent(BotCreated, recorded).data.bot_id;
          if (!this.queue.includes(botId) && !this.running.has(botId)) this.queue.push(botId);
          this.pump();
        }
      },
    );
    this.pump();
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** The process id of a bot running on this machine (operators and tests). */
  pidOf(botId: string): number | undefined {
    return this.running.get(botId)?.pid ?? undefined;
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.deps.slots && this.queue.length > 0) {
      const botId = this.queue.shift()!;
      this.running.set(botId, null); // the slot is taken before the process exists
      this.dispatch(botId).catch((err) => {
        this.deps.log.error({ err, bot_id: botId }, 'dispatch failed');
        this.running.delete(botId);
        this.pump();
      });
    }
  }

  private async dispatch(botId: string): Promise<void> {
    const dispatched = await handleBotCommand(this.deps.commands, botId, {
      type: 'DispatchBot',
      worker_id: `local-${process.pid}`,
      now: this.deps.commands.clock().toISOString(),
    });
    // Nothing to do when the bot ended (left while queued) or another dispatcher took it.
    if (E.isLeft(dispatched) || dispatched.right.events.length === 0) {
      this.running.delete(botId);
      return this.pump();
    }
    const [first] = await this.deps.eventStore.readStream(botStreamName(botId));
    const job = botJobFrom(decodeRecordedEvent(BotCreated, first!), {
      kind: 'http',
      baseUrl: this.deps.serviceUrl,
      token: this.deps.signer.botToken(botId),
    });
    const launched = this.deps.launcher.launch(job, { serviceUrl: this.deps.serviceUrl, botToken: this.deps.signer.botToken(botId) });
    this.running.set(botId, launched);
    const exit = await launched.exited;
    this.running.delete(botId);
    await handleBotCommand(this.deps.commands, botId, {
      type: 'EndBot',
      outcome: 'failed',
      error_code: crashCodeOf(exit),
      error_message: `The bot process exited (code ${exit.code}, signal ${exit.signal}) without reporting its end`,
      usage: { recorded_seconds: 0, waiting_room_seconds: 0 },
      now: this.deps.commands.clock().toISOString(),
    });
    this.pump();
  }

  private async failOrphan(botId: string): Promise<void> {
    await handleBotCommand(this.deps.commands, botId, {
      type: 'EndBot',
      outcome: 'failed',
      error_code: 'SIGTERM',
      error_message: 'The service stopped while the bot was running',
      usage: { recorded_seconds: 0, waiting_room_seconds: 0 },
      now: this.deps.commands.clock().toISOString(),
    });
  }

  /**
   * Stops dispatching and ends the running bots: SIGTERM lets a bot store what it recorded and report its
   * end; one still running after `graceMs` is killed.
   */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    const bots = [...this.running.values()].filter((b): b is LaunchedBot => b !== null);
    bots.forEach((bot) => bot.kill('SIGTERM'));
    await Promise.all(
      bots.map(async (bot) => {
        const timer = setTimeout(() => bot.kill('SIGKILL'), graceMs);
        await bot.exited;
        clearTimeout(timer);
      }),
    );
  }
}
