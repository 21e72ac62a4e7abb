import * as E from 'fp-ts/Either';
import type { BotRejection } from '../domain/bot/bot-decider';
import { handleBotCommand } from './bot-commands';
import type { CommandDeps } from './command-deps';

/** Reads of one bot's data by one key are recorded at most once per window (then with their count). */
export const DATA_ACCESS_WINDOW_MS = 60_000;

interface OpenWindow {
  readonly bot_id: string;
  readonly key_id: string;
  readonly opened_ms: number;
  /** reads since the window opened that no event records yet, and the time of the last one */
  pending: number;
  last_at: string;
}

export interface DataAccessTally {
  /**
   * One read of a bot's data. The first read of a bot by a key in a window is recorded at once (with the
   * reads the window before held back), so the read that follows a quiet spell counts when it is answered;
   * the reads after it in the window are held and recorded together when the window closes.
   */
  read(botId: string, keyId: string): Promise<E.Either<BotRejection, { position: bigint | null }>>;
  /** Records the reads of every window that has closed (a periodic sweep calls it); the last position written. */
  recordClosedWindows(): Promise<bigint | null>;
  /** Records every read held back, closed window or not (the service's stop calls it); the last position written. */
  recordAll(): Promise<bigint | null>;
}

/**
 * GETs are not rate limited (the spec), so a read must not append an event each time: the legacy list's
 * `access_count` and `last_accessed_at` stay exact (every read counts, at its time), but appear up to a
 * window late, and the log grows by at most one event per bot and key per window however often it is read.
 * What is held is in memory: a stop records it; a crash loses at most one window of reads of a bot.
 */
export const dataAccessTally = (deps: CommandDeps, windowMs = DATA_ACCESS_WINDOW_MS): DataAccessTally => {
  const windows = new Map<string, OpenWindow>();
  const record = (botId: string, keyId: string, reads: number, at: string) =>
    handleBotCommand(deps, botId, { type: 'RecordDataAccess', key_id: keyId, reads, now: at });

  const flush = async (closed: (window: OpenWindow) => boolean): Promise<bigint | null> => {
    let position: bigint | null = null;
    for (const id of [...windows.keys()]) {
      // Read again after each await: a read meanwhile may have recorded this window itself.
      const window = windows.get(id);
      if (window === undefined || !closed(window)) continue;
      if (window.pending === 0) {
        windows.delete(id);
        continue;
      }
      // The window goes on from here when it held reads (a bot read without pause: one event a window).
      windows.set(id, { ...window, opened_ms: deps.clock().getTime(), pending: 0 });
      const recorded = await record(window.bot_id, window.key_id, window.pending, window.last_at);
      if (E.isRight(recorded) && recorded.right.position !== null) position = recorded.right.position;
    }
    return position;
  };

  return {
    read: async (botId, keyId) => {
      const id = `${botId} ${keyId}`;
      const now = deps.clock();
      const open = windows.get(id);
      if (open && now.getTime() - open.opened_ms < windowMs) {
        open.pending += 1;
        open.last_at = now.toISOString();
        return E.right({ position: null });
      }
      windows.set(id, { bot_id: botId, key_id: keyId, opened_ms: now.getTime(), pending: 0, last_at: now.toISOString() });
      return record(botId, keyId, 1 + (open?.pending ?? 0), now.toISOString());
    },
    recordClosedWindows: () => flush((window) => deps.clock().getTime() - window.opened_ms >= windowMs),
    recordAll: () => flush(() => true),
  };
};
