import type { SharedState } from '../adapters/shared-state/port';

/**
 * When each bot last called the service, on whichever api instance: written to the shared store at most
 * every `writeEveryMs` per bot from each instance (a bot's calls come often), read by the watches and by
 * the API (a bot silent too long is unreachable at once rather than after a timeout).
 */
export class BotContacts {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly shared: SharedState,
    private readonly nowMs: () => number,
    private readonly writeEveryMs: number,
  ) {}

  /** The bot called now. */
  async note(botId: string): Promise<void> {
    const now = this.nowMs();
    const last = this.lastWritten.get(botId);
    if (last !== undefined && now - last < this.writeEveryMs && now >= last) return;
    this.lastWritten.set(botId, now);
    await this.shared.noteContact(botId, now);
  }

  async lastContactsOf(botIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.shared.lastContacts(botIds);
  }

  /** Whether the bot called within `withinMs`, on any instance. */
  async heardWithin(botId: string, withinMs: number): Promise<boolean> {
    const at = (await this.shared.lastContacts([botId])).get(botId);
    return at !== undefined && this.nowMs() - at < withinMs;
  }

  /** The bot has ended: this instance forgets its throttle (the shared row stays, harmless). */
  forget(botId: string): void {
    this.lastWritten.delete(botId);
  }
}
