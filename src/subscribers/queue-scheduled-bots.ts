import type Logger from 'bunyan';
import { keepSubscribed } from './keep-subscribed';
import type { EventStore, Subscription } from '../adapters/event-store/port';
import type { ReadStore } from '../adapters/read-store/port';
import type { CommandDeps } from '../commands/command-deps';
import { queueScheduledBot, type QueueOutcome } from '../commands/queue-scheduled-bot';
import type { DomainEvent } from '../domain/all-events';
import { queueingTimeOf } from '../domain/bot/schedule-timing';
import { BOTS, type BotView } from '../projections/bot-view';
import { DueTimes } from './due-times';
import { followLog } from './follow-log';
import { TeamSchedule } from './team-schedule';

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
/**
 * The least a queueing is assumed to cost (one team's bots are queued one after another, so a burst starts
 * this much earlier per bot): `npm run bench:schedule` measured up to 28 ms a bot flat out in the running
 * service on this loaded two-core machine (docs/performance.md). Measured tries can raise it, never lower
 * it: what a try sets off (read models, subscribers) partly runs after the next one, so back-to-back tries
 * can look cheaper than a burst turns out to be, and starting early costs nothing.
 */
const MIN_QUEUEING_ESTIMATE_MS = 30;
/** A try that starts this soon after the team's previous one ended runs back to back with it. */
const BACK_TO_BACK_MS = 20;
const RETRY_MAX_MS = 30_000;
/** The most a lone scheduled bot is queued ahead of its queueing time: the estimate of a queueing is capped here. */
export const MAX_QUEUEING_ESTIMATE_MS = 1000;

/**
 * Queues scheduled bots at their time. Its due times come from events only: at start it reads the bots
 * still `scheduled` from the read model (itself a fold of the log), then follows BotScheduled and
 * BotScheduleChanged (a time) and BotCreated and BotFailed (no longer waiting) from the position that read
 * model had reached. What it keeps in memory is rebuilt that way at every start, so a restart loses no
 * schedule, and a bot whose time passed while the service was down is tried at once (queueScheduledBot
 * decides whether it is still in time). Queueing itself is idempotent, so a bot tried twice is queued once.
 *
 * One team's bots are queued one at a time, in the order of their times and then of their scheduling, as
 * its single requests would be decided one after another: a bot refused as a duplicate gives its
 * reservation back before the next is decided (two at once could refuse a bot for tokens that one of
 * them was about to give back). Teams are queued in parallel: they share nothing. So that a burst (a
 * thousand bots for 9:00) is queued by its time rather than from it, a team starts early by what its
 * bots due by then take to queue one after another, from the measured cost of a queueing.
 */
export class BotScheduler {
  /** join_at and team of every bot still scheduled, as the events say */
  private readonly waiting = new Map<string, { readonly joinAt: string; readonly teamId: string }>();
  /** per team: when to try each of its bots next (its queueing time, or a retry after a failed try) */
  private readonly dueByTeam = new Map<string, TeamSchedule>();
  /** teams, by when their next bot must start for their bots to be queued in time */
  private readonly teams = new DueTimes();
  /** the cost of one queueing: a moving average of the measured ones, at least MIN_QUEUEING_ESTIMATE_MS */
  private queueingMs = MIN_QUEUEING_ESTIMATE_MS;
  /** when each team's last try ended (performance.now()), to measure tries that run back to back */
  private readonly lastTryEnded = new Map<string, number>();
  /** the teams with a bot being queued, and that try */
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
    // In the order they were scheduled: bots due at the same instant are queued in that order.
    const waiting = await this.deps.readStore.find<BotView>(BOTS, {
      where: { status: 'scheduled' },
      orderBy: [{ field: 'created_at', direction: 'asc' }],
    });
    for (const bot of waiting) if (bot.join_at) this.waitFor(bot.bot_id, bot.team_id, bot.join_at);
    this.subscription = followLog(this.deps.eventStore, { name: 'scheduler', fromPosition, log: this.deps.log }, (event) => this.follow(event));
    this.arm();
  }

  /** Scheduled bots waiting for their time (operators and tests). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** BotScheduled and BotScheduleChanged set a time; BotCreated (queued) and BotFailed (ended) end the wait. */
  private follow(event: DomainEvent): void {
    if (event.type === 'BotScheduled') this.waitFor(event.data.bot_id, event.data.team_id, event.data.join_at);
    else if (event.type === 'BotScheduleChanged') {
      const teamId = this.waiting.get(event.data.bot_id)?.teamId;
      if (teamId !== undefined) this.waitFor(event.data.bot_id, teamId, event.data.join_at);
    } else if (event.type === 'BotCreated' || event.type === 'BotFailed') this.forget(event.data.bot_id);
    else return;
    this.arm();
  }

  private waitFor(botId: string, teamId: string, joinAt: string): void {
    this.waiting.set(botId, { joinAt, teamId });
    this.failures.delete(botId);
    this.setDue(botId, teamId, queueingTimeOf(joinAt));
  }

  private forget(botId: string): void {
    const bot = this.waiting.get(botId);
    this.waiting.delete(botId);
    this.failures.delete(botId);
    if (bot === undefined) return;
    this.dueByTeam.get(bot.teamId)?.delete(botId);
    this.refreshTeam(bot.teamId);
  }

  private setDue(botId: string, teamId: string, dueMs: number): void {
    let due = this.dueByTeam.get(teamId);
    if (due === undefined) {
      due = new TeamSchedule();
      this.dueByTeam.set(teamId, due);
    }
    due.set(botId, dueMs);
    this.refreshTeam(teamId);
  }

  /** The team's place among teams: when its next bot must start (a busy team keeps its place until it is free). */
  private refreshTeam(teamId: string): void {
    const start = this.dueByTeam.get(teamId)?.startTime(this.queueingMs);
    if (start === undefined) {
      this.dueByTeam.delete(teamId);
      this.teams.delete(teamId);
      this.lastTryEnded.delete(teamId);
    } else if (this.teams.dueOf(teamId) !== start) {
      this.teams.set(teamId, start);
    }
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const next = this.teams.earliest();
    if (next === undefined) return;
    // Due now but all busy (or no try free): a finishing try arms again.
    const delay = next <= this.nowMs() ? (this.inFlight.size > 0 ? MAX_SLEEP_MS : 0) : next - this.nowMs();
    this.timer = setTimeout(() => this.fire(), Math.min(delay, MAX_SLEEP_MS));
  }

  private fire(): void {
    this.timer = null;
    if (this.stopped) return;
    const free = this.concurrency - this.inFlight.size;
    const nowMs = this.nowMs();
    if (free > 0) {
      for (const teamId of this.teams.takeDue(nowMs, free, (id) => this.inFlight.has(id))) {
        const schedule = this.dueByTeam.get(teamId);
        const head = schedule?.head();
        if (schedule === undefined || head === undefined) {
          this.refreshTeam(teamId);
          continue;
        }
        schedule.takeHead();
        // Started before its own time on purpose when the team's burst needs it: the command allows that much.
        this.tryToQueue(head.botId, teamId, Math.max(0, head.dueMs - nowMs));
      }
    }
    this.arm();
  }

  private tryToQueue(botId: string, teamId: string, aheadMs: number): void {
    const started = performance.now();
    const previousEnded = this.lastTryEnded.get(teamId);
    const attempt = queueScheduledBot(this.deps.commands, botId, { aheadMs })
      .then((outcome) => {
        const ended = performance.now();
        this.lastTryEnded.set(teamId, ended);
        // Only tries back to back tell what a burst costs: the time between two ends holds the try and the
        // service's work it causes (the read models and subscribers that follow each queued bot). A lone try
        // looks cheaper (that work runs after it), and would make the next burst start too late.
        const backToBack = previousEnded !== undefined && started - previousEnded < BACK_TO_BACK_MS;
        if (backToBack && (outcome === 'queued' || outcome === 'refused')) this.measure(ended - previousEnded);
        this.settle(botId, outcome);
      })
      .catch((err) => this.retryLater(botId, err))
      .finally(() => {
        this.inFlight.delete(teamId);
        this.refreshTeam(teamId);
        // The next due bot starts now, not at the next turn of the timers (a burst would wait for each).
        this.fire();
      });
    this.inFlight.set(teamId, attempt);
  }

  /** A moving average, kept a quarter high: starting a burst a bit early costs nothing, late is what shows. */
  private measure(durationMs: number): void {
    this.queueingMs = Math.min(MAX_QUEUEING_ESTIMATE_MS, Math.max(MIN_QUEUEING_ESTIMATE_MS, 0.9 * this.queueingMs + 0.1 * durationMs * 1.25));
  }

  private settle(botId: string, outcome: QueueOutcome): void {
    if (outcome === 'queued' || outcome === 'refused' || outcome === 'not_scheduled') {
      if (outcome !== 'not_scheduled') this.deps.log.info({ bot_id: botId, outcome }, 'scheduled bot handled at its time');
      this.forget(botId);
      return;
    }
    // Not due after all (a clock moved back) or changed meanwhile: its time, as the events now say, decides.
    const bot = this.waiting.get(botId);
    if (bot !== undefined && !this.dueByTeam.get(bot.teamId)?.has(botId)) this.setDue(botId, bot.teamId, queueingTimeOf(bot.joinAt));
  }

  /** The store failed (or a bug): try again later, less often each time; queueing is idempotent. */
  private retryLater(botId: string, err: unknown): void {
    this.deps.log.error({ err, bot_id: botId }, 'queueing a scheduled bot failed; will retry');
    const bot = this.waiting.get(botId);
    if (bot === undefined || this.dueByTeam.get(bot.teamId)?.has(botId)) return;
    const failures = (this.failures.get(botId) ?? 0) + 1;
    this.failures.set(botId, failures);
    this.setDue(botId, bot.teamId, this.nowMs() + Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.subscription?.stop();
    await Promise.all([...this.inFlight.values()]);
  }
}
