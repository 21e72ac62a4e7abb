import type Logger from 'bunyan';
import type { BotControl, BotPolls, ChatOutcome } from '../../adapters/bot-control/port';
import type { EventStore, RecordedEvent, Subscription } from '../../adapters/event-store/port';
import type { BotContacts } from '../../commands/bot-contacts';
import type { DomainEvent } from '../../domain/all-events';
import { followLog } from '../follow-log';

interface Waiter<T> {
  readonly resolve: (value: T) => void;
}

/**
 * This instance's view of the control requests and answers that any instance records: it follows the
 * log live (from where the read models were at its start) and resolves what waits here: API calls waiting
 * for a bot's chat answer or leave acknowledgement, and bots' long polls waiting for a request. Nothing
 * here must survive a restart: the requests and answers are in the log, and the waits are bounded.
 */
export class LiveControl implements BotControl, BotPolls {
  private subscription: Subscription | null = null;
  private readonly waiters = new Map<string, Set<Waiter<unknown>>>();

  constructor(
    private readonly deps: {
      readonly eventStore: EventStore;
      readonly contacts: BotContacts;
      readonly log: Logger;
      /** a bot that has not called for this long is unreachable (longer than one long poll) */
      readonly reachableWithinMs: number;
    },
  ) {}

  start(fromPosition: bigint | null): void {
    this.subscription = followLog(this.deps.eventStore, { name: 'live-control', fromPosition, log: this.deps.log }, (event, recorded) => this.see(event, recorded));
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    for (const [key, waiters] of this.waiters) for (const waiter of waiters) waiter.resolve(key.startsWith('poll:') ? undefined : null);
    this.waiters.clear();
  }

  reachable(botId: string): Promise<boolean> {
    return this.deps.contacts.heardWithin(botId, this.deps.reachableWithinMs);
  }

  chatOutcome(botId: string, requestId: string, timeoutMs: number): Promise<ChatOutcome | null> {
    return this.wait<ChatOutcome | null>(`chat:${botId}:${requestId}`, timeoutMs, null).changed;
  }

  leaveAcknowledged(botId: string, timeoutMs: number): Promise<boolean> {
    return this.wait<boolean>(`leave:${botId}`, timeoutMs, false).changed;
  }

  nextChange(botId: string, waitMs: number): { readonly changed: Promise<void>; cancel(): void } {
    return this.wait<void>(`poll:${botId}`, waitMs, undefined);
  }

  private wait<T>(key: string, timeoutMs: number, onTimeout: T): { readonly changed: Promise<T>; cancel(): void } {
    let waiter!: Waiter<T>;
    let timer: NodeJS.Timeout;
    const changed = new Promise<T>((resolve) => {
      waiter = {
        resolve: (value) => {
          clearTimeout(timer);
          this.waiters.get(key)?.delete(waiter as Waiter<unknown>);
          if (this.waiters.get(key)?.size === 0) this.waiters.delete(key);
          resolve(value);
        },
      };
      timer = setTimeout(() => waiter.resolve(onTimeout), timeoutMs);
      timer.unref();
    });
    const set = this.waiters.get(key) ?? new Set();
    set.add(waiter as Waiter<unknown>);
    this.waiters.set(key, set);
    return { changed, cancel: () => waiter.resolve(onTimeout) };
  }

  private resolve(key: string, value: unknown): void {
    for (const waiter of [...(this.waiters.get(key) ?? [])]) waiter.resolve(value);
  }

  private see(event: DomainEvent, recorded: RecordedEvent): void {
    switch (event.type) {
      case 'ChatMessageRequested':
      case 'BotLeaveRequested':
      case 'BotCompleted':
      case 'BotFailed':
        return this.resolve(`poll:${event.data.bot_id}`, undefined);
      case 'ChatMessageSent':
        return this.resolve(`chat:${event.data.bot_id}:${event.data.message_id}`, { ok: true, position: recorded.position } satisfies ChatOutcome);
      case 'ChatMessageFailed': {
        const { bot_id, request_id, reason, message } = event.data;
        return this.resolve(`chat:${bot_id}:${request_id}`, { ok: false, reason, message, position: recorded.position } satisfies ChatOutcome);
      }
      case 'BotLeaveAcknowledged':
        return this.resolve(`leave:${event.data.bot_id}`, true);
      default:
        return;
    }
  }
}
