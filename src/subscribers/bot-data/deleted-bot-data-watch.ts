import { setTimeout as sleep } from 'node:timers/promises';
import type Logger from 'bunyan';
import type { EventStore, Subscription } from '../../adapters/event-store/port';
import type { KeyVault } from '../../adapters/key-vault/port';
import { forgetFoldedStatesOf } from '../../commands/delete-bot-data';
import { followLog } from '../follow-log';

/** How soon this process looks again for the destruction of a deleted bot's key: from 20 ms, doubling, up to 2 s. */
const KEY_RECHECK = { firstMs: 20, maxMs: 2_000 };

export interface DeletedBotDataWatchDeps {
  readonly eventStore: EventStore;
  readonly keyVault: KeyVault;
  readonly log: Logger;
}

/**
 * This process's share of a deletion of a bot's data that any instance may have asked. It follows the log
 * live (from where this process's read models were at its start: what it folded before is gone with its
 * memory) and:
 * - forgets what it folded of the bot (states folded before hold its personal fields as they read then:
 *   a queued webhook's payload), once the bot's key is destroyed, so that nothing is folded again with the
 *   key still live. The deleting request destroys the key right after recording the deletion; if it
 *   stopped in between, the eraser does (lease `data-erasure`). This process only reads the vault, and waits.
 * - wakes the deletion requests it holds once the erasure of the bot's artifacts is recorded, by whichever
 *   instance holds the lease.
 * It changes nothing outside this process, so it runs in every process, under no lease; nothing of it must
 * survive a restart (its memory, and requests that wait bounded).
 */
export class DeletedBotDataWatch {
  private subscription: Subscription | null = null;
  private stopping = new AbortController();
  private readonly erasureWaiters = new Map<string, Set<(position: bigint) => void>>();

  constructor(private readonly deps: DeletedBotDataWatchDeps) {}

  start(fromPosition: bigint | null): void {
    this.stopping = new AbortController();
    this.subscription = followLog(this.deps.eventStore, { name: 'deleted-bot-data-watch', fromPosition, log: this.deps.log }, async (event, recorded) => {
      if (event.type === 'BotDataDeleted') await this.forgetOnceKeyDestroyed(event.data.bot_id, this.stopping.signal);
      if (event.type === 'BotArtifactsErased') for (const wake of [...(this.erasureWaiters.get(event.data.bot_id) ?? [])]) wake(recorded.position);
    });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.subscription?.stop();
    this.subscription = null;
  }

  /**
   * Resolves with the position of the bot's BotArtifactsErased once this process sees it. Asked before the
   * deletion is recorded, an erasure recorded at once is not missed; `cancel` when no longer waiting.
   */
  erasureOf(botId: string): { readonly recorded: Promise<bigint>; cancel(): void } {
    let wake!: (position: bigint) => void;
    const recorded = new Promise<bigint>((resolve) => (wake = resolve));
    const waiters = this.erasureWaiters.get(botId) ?? new Set();
    waiters.add(wake);
    this.erasureWaiters.set(botId, waiters);
    return {
      recorded,
      cancel: () => {
        waiters.delete(wake);
        if (waiters.size === 0 && this.erasureWaiters.get(botId) === waiters) this.erasureWaiters.delete(botId);
      },
    };
  }

  private async forgetOnceKeyDestroyed(botId: string, stopping: AbortSignal): Promise<void> {
    for (let waitMs = KEY_RECHECK.firstMs; ; waitMs = Math.min(waitMs * 2, KEY_RECHECK.maxMs)) {
      if ((await this.deps.keyVault.lookup(botId)).state === 'destroyed') break;
      if (waitMs === KEY_RECHECK.firstMs) this.deps.log.info({ bot_id: botId }, "a deleted bot's key is not destroyed yet: its folded states are forgotten once it is");
      try {
        await sleep(waitMs, undefined, { signal: stopping });
      } catch {
        return; // this process is stopping: its memory goes with it
      }
    }
    forgetFoldedStatesOf(this.deps.eventStore, botId);
  }
}
