import { keepSubscribed } from './keep-subscribed';
import type { Subscription } from '../adapters/event-store/port';
import { loadCalendar } from '../commands/calendar-commands';
import { hasPendingRequest } from '../domain/calendar/calendar-decider';
import { CALENDARS, type CalendarView } from '../projections/calendars/calendar-view';
import { defaultCalendarSyncOptions, sessionOf, type CalendarSyncDeps, type CalendarSyncOptions } from './calendars/calendar-sync-deps';
import { closeAllChannels, keepPushChannel } from './calendars/push-channels';
import { syncCalendar } from './calendars/sync-round';
import { followLog } from './follow-log';

interface Entry {
  /** when to look at the calendar next (0: now) */
  dueMs: number;
  running: boolean;
  /** asked again while a round ran: another round right after it */
  again: boolean;
  /** rounds started so far, and failures in a row (for the backoff) */
  started: number;
  failures: number;
  /** a provider refused a push channel: not asked again before this */
  pushRefusedUntilMs: number | null;
}

interface Waiter {
  readonly round: number;
  readonly resolve: (position: bigint | null | undefined) => void;
}

/**
 * Keeps connected calendars in step with their providers. A calendar is synced at once when connected,
 * whenever a sync is requested (a provider's push notice, a team's resync), and every
 * `periodicResyncMs` as a fallback; each round then keeps its push channel open. What must survive a
 * restart is in the log (requests, cursors, channels); the schedule is rebuilt from it at start, where
 * every calendar gets a round (which also catches a push that arrived just before a crash).
 */
export class CalendarSyncWorker {
  private readonly options: CalendarSyncOptions;
  private readonly entries = new Map<string, Entry>();
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly rounds = new Set<Promise<void>>();
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly deps: CalendarSyncDeps,
    options: Partial<CalendarSyncOptions> = {},
  ) {
    this.options = { ...defaultCalendarSyncOptions, ...options };
  }

  async start(fromPosition: bigint | null): Promise<void> {
    const calendars = await this.deps.readStore.find<CalendarView>(CALENDARS, {});
    for (const calendar of calendars) if (!calendar.removed || calendar.push_channels.length > 0) this.wake(calendar.id);
    // A calendar needs a round now when it is connected, asked for a sync, or removed (its channels close).
    this.subscription = followLog(this.deps.commands.eventStore, { name: 'sync-calendars', fromPosition, log: this.deps.log }, (event) => {
      if (event.type === 'CalendarConnected' || event.type === 'CalendarSyncRequested' || event.type === 'CalendarRemoved') this.wake(event.data.calendar_id);
    });
    this.timer = setInterval(() => this.pump(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.stop();
    await Promise.all([...this.rounds]);
    for (const waiters of this.waiters.values()) for (const w of waiters) w.resolve(undefined);
    this.waiters.clear();
  }

  /** A round for this calendar as soon as a slot is free (after the one under way, if any). */
  wake(calendarId: string): void {
    const entry = this.entryOf(calendarId);
    if (entry.running) entry.again = true;
    else entry.dueMs = 0;
    this.pump();
  }

  /**
   * Resolves when a round that begins after this call has ended, with the last position it appended
   * (null: it changed nothing), or undefined if none ended within `timeoutMs`.
   */
  nextRound(calendarId: string, timeoutMs: number): Promise<bigint | null | undefined> {
    const entry = this.entryOf(calendarId);
    return new Promise((resolve) => {
      const waiter: Waiter = { round: entry.started + 1, resolve };
      const list = this.waiters.get(calendarId) ?? [];
      list.push(waiter);
      this.waiters.set(calendarId, list);
      setTimeout(() => {
        const current = this.waiters.get(calendarId) ?? [];
        if (!current.includes(waiter)) return;
        this.waiters.set(calendarId, current.filter((w) => w !== waiter));
        resolve(undefined);
      }, timeoutMs).unref();
    });
  }

  private entryOf(calendarId: string): Entry {
    let entry = this.entries.get(calendarId);
    if (!entry) {
      entry = { dueMs: 0, running: false, again: false, started: 0, failures: 0, pushRefusedUntilMs: null };
      this.entries.set(calendarId, entry);
    }
    return entry;
  }

  private pump(): void {
    if (this.stopped) return;
    const nowMs = this.deps.commands.clock().getTime();
    let running = [...this.entries.values()].filter((e) => e.running).length;
    for (const [calendarId, entry] of this.entries) {
      if (running >= this.options.concurrency) return;
      if (entry.running || entry.dueMs > nowMs) continue;
      running += 1;
      this.run(calendarId, entry);
    }
  }

  private run(calendarId: string, entry: Entry): void {
    entry.running = true;
    entry.again = false;
    entry.started += 1;
    const round = entry.started;
    const done = this.round(calendarId, entry)
      .then(({ position, nextInMs }) => {
        this.settle(calendarId, round, position);
        // Nothing to do until asked (removed, or refused for good): no due time, but the entry stays, so
        // that rounds keep counting for whoever waits on the next one.
        entry.dueMs = entry.again ? 0 : nextInMs === null ? Infinity : this.deps.commands.clock().getTime() + nextInMs;
      })
      .catch((err: unknown) => {
        // Not the provider's answer (those are recorded): the store or a bug. Tried again after a while.
        this.deps.log.error({ err, calendar_id: calendarId }, 'calendar sync round failed unexpectedly');
        this.settle(calendarId, round, null);
        entry.dueMs = this.deps.commands.clock().getTime() + this.backoff(entry);
      })
      .finally(() => {
        entry.running = false;
        this.rounds.delete(done);
        this.pump();
      });
    this.rounds.add(done);
  }

  private settle(calendarId: string, round: number, position: bigint | null): void {
    const waiters = this.waiters.get(calendarId) ?? [];
    for (const waiter of waiters.filter((w) => w.round <= round)) waiter.resolve(position);
    const left = waiters.filter((w) => w.round > round);
    if (left.length > 0) this.waiters.set(calendarId, left);
    else this.waiters.delete(calendarId);
  }

  private backoff(entry: Entry): number {
    entry.failures += 1;
    return Math.min(this.options.retryAfterFailureMs * 2 ** (entry.failures - 1), this.options.periodicResyncMs);
  }

  /** One look at a calendar: its sync round, then its push channel. The answer says when to look again. */
  private async round(calendarId: string, entry: Entry): Promise<{ position: bigint | null; nextInMs: number | null }> {
    const state = await loadCalendar(this.deps.commands, calendarId);
    if (state.kind === 'absent') return { position: null, nextInMs: null };
    if (state.removed) {
      const session = state.channels.length > 0 ? this.sessionOrNull(state) : null;
      return { position: await closeAllChannels(this.deps, state, session), nextInMs: null };
    }
    // A calendar refused for good waits for its team to ask again.
    if (state.status === 'error' && !hasPendingRequest(state)) return { position: null, nextInMs: null };
    const session = sessionOf(this.deps, state);
    const synced = await syncCalendar(this.deps, state, session);
    if (!synced.ok) {
      if (synced.failure !== 'provider_unavailable') return { position: synced.position, nextInMs: null };
      return { position: synced.position, nextInMs: this.backoff(entry) };
    }
    entry.failures = 0;
    const after = await loadCalendar(this.deps.commands, calendarId);
    if (after.kind !== 'present' || after.removed) return { position: synced.position, nextInMs: 0 };
    const upkeep = await keepPushChannel(this.deps, this.options, after, sessionOf(this.deps, after), entry.pushRefusedUntilMs);
    entry.pushRefusedUntilMs = upkeep.refusedUntilMs;
    const nowMs = this.deps.commands.clock().getTime();
    const nextInMs = Math.min(this.options.periodicResyncMs, upkeep.nextCheckMs === null ? Infinity : Math.max(0, upkeep.nextCheckMs - nowMs));
    return { position: upkeep.position ?? synced.position, nextInMs };
  }

  private sessionOrNull(state: Parameters<typeof sessionOf>[1]) {
    try {
      return sessionOf(this.deps, state);
    } catch (err) {
      this.deps.log.error({ err, calendar_id: state.calendar_id }, 'the credentials of a removed calendar could not be opened');
      return null;
    }
  }
}
