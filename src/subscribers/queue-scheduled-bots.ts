import type Logger from 'bunyan';
import { keepSubscribed } from '../adapters/event-store/keep-subscribed';
import type { EventStore, RecordedEvent, Subscription } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { CommandDeps } from '../commands/command-deps';
import { decodeRecordedEvent } from '../commands/decode-recorded-event';
import { queueScheduledBot, type QueueOutcome } from '../commands/queue-scheduled-bot';
import { BotEvent } from '../domain/bot/bot-events';
import { queueingTimeOf } from '../domain/bot/schedule-timing';
import { BOTS, type BotView } from '../projections/bot-view';
import { DueTimes } from './due-times';

export interface SchedulerDeps {
  readonly commands: CommandDeps;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly log: Logger;
  /** scheduled bots being queued at once (they serialise on their team's ledger anyway) */
  readonly concurrency?: number;
}

/**
 * The longest the scheduler sleeps: the clock it reads may be moved (an injected clock in tests, a system
 * clock adjusted), and a sleep computed from the old time must not outlast the new one by much.
 */
const MAX_SLEEP_MS = 250;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
const SCHEDULE_EVENTS: ReadonlySet<string> = new Set(['BotScheduled', 'BotScheduleChanged', 'BotCreated', 'BotFailed']);

/**
 * Queues scheduled bots at their time. Its due times come from events only: at start it reads the bots
 * still `scheduled` from the read model (itself a fold of the log), then follows BotScheduled and
 * BotScheduleChanged (a time) and BotCreated and BotFailed (no longer waiting) from the position that read
 * model had reached. What it keeps in memory is rebuilt that way at every start, so a restart loses no
 * schedule, and a bot whose time passed while the service was down is tried at once (queueScheduledBot
 * decides whether it is still in time). Queueing itself is idempotent, so a bot tried twice is queued once.
 */
export class BotScheduler {
  /** join_at of every bot still scheduled, as the events say */
  private readonly joinAt = new Map<string, string>();
  /** when to try each bot next: its queueing time, or a retry after a failed try */
  private readonly due = new DueTimes();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, number>();
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  private get concurrency(): number {
    return this.deps.concurrency ?? 8;
  }

  private nowMs(): number {
    return this.deps.commands.clock().getTime();
  }

  async start(fromPosition: bigint | null): Promise<void> {
    const waiting = await this.deps.readStore.find<BotView>(BOTS, { where: { status: 'scheduled' } });
    for (const bot of waiting) if (bot.join_at) this.waitFor(bot.bot_id, bot.join_at);
    this.subscription = keepSubscribed(
      this.deps.eventStore,
      { name: 'scheduler', ...(fromPosition === null ? {} : { fromPosition }), log: this.deps.log },
      async (recorded) => {
        if (SCHEDULE_EVENTS.has(recorded.type)) this.follow(recorded);
      },
    );
    this.arm();
  }

  /** Scheduled bots waiting for their time (operators and tests). */
  get waitingCount(): number {
    return this.joinAt.size;
  }

  private follow(recorded: RecordedEvent): void {
    const event = decodeRecordedEvent(BotEvent, recorded);
    if (event.type === 'BotScheduled' || event.type === 'BotScheduleChanged') this.waitFor(event.data.bot_id, event.data.join_at);
    else this.forget(event.data.bot_id);
    this.arm();
  }

  private waitFor(botId: string, joinAt: string): void {
    this.joinAt.set(botId, joinAt);
    this.failures.delete(botId);
    this.due.set(botId, queueingTimeOf(joinAt));
  }

  private forget(botId: string): void {
    this.joinAt.delete(botId);
    this.failures.delete(botId);
    this.due.delete(botId);
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const next = this.due.earliest();
    if (next === undefined) return;
    // Bots due now are all being tried or waiting for a free try: a finishing try arms again.
    const delay = next <= this.nowMs() ? (this.inFlight.size > 0 ? MAX_SLEEP_MS : 0) : next - this.nowMs();
    this.timer = setTimeout(() => this.fire(), Math.min(delay, MAX_SLEEP_MS));
  }

  private fire(): void {
    this.timer = null;
    if (this.stopped) return;
    const free = this.concurrency - this.inFlight.size;
    if (free > 0) {
      for (const botId of this.due.takeDue(this.nowMs(), free, (id) => this.inFlight.has(id))) this.tryToQueue(botId);
    }
    this.arm();
  }

  private tryToQueue(botId: string): void {
    const attempt = queueScheduledBot(this.deps.commands, botId)
      .then((outcome) => this.settle(botId, outcome))
      .catch((err) => this.retryLater(botId, err))
      .finally(() => {
        this.inFlight.delete(botId);
        this.arm();
      });
    this.inFlight.set(botId, attempt);
  }

  private settle(botId: string, outcome: QueueOutcome): void {
    if (outcome === 'queued' || outcome === 'refused' || outcome === 'not_scheduled') {
      if (outcome !== 'not_scheduled') this.deps.log.info({ bot_id: botId, outcome }, 'scheduled bot handled at its time');
      this.forget(botId);
      return;
    }
    // Not due after all (a clock moved back) or changed meanwhile: its time, as the events now say, decides.
    const joinAt = this.joinAt.get(botId);
    if (joinAt !== undefined && !this.due.has(botId)) this.due.set(botId, queueingTimeOf(joinAt));
  }

  /** The store failed (or a bug): try again later, less often each time; queueing is idempotent. */
  private retryLater(botId: string, err: unknown): void {
    this.deps.log.error({ err, bot_id: botId }, 'queueing a scheduled bot failed; will retry');
    if (!this.joinAt.has(botId) || this.due.has(botId)) return;
    const failures = (this.failures.get(botId) ?? 0) + 1;
    this.failures.set(botId, failures);
    this.due.set(botId, this.nowMs() + Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.subscription?.stop();
    await Promise.all([...this.inFlight.values()]);
  }
}
