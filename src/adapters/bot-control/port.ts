import type { ChatFailure } from '../../domain/bot/bot-events';

/** The recorded answer to a chat request: sent, or why not; with its position (read-your-writes). */
export type ChatOutcome =
  | { readonly ok: true; readonly position: bigint }
  | { readonly ok: false; readonly reason: ChatFailure; readonly message: string; readonly position: bigint };

/**
 * Reaches running bots without sticky routing: requests are recorded on the bot's stream (any instance
 * hands them to the bot's long poll), answers are recorded too, and any instance sees them in the log.
 */
export interface BotControl {
  /** Whether the bot called the service lately, on any instance (a bot that does not is unreachable). */
  reachable(botId: string): Promise<boolean>;
  /**
   * Starts waiting for the outcome of a chat request (call before recording the request, so that no answer
   * can slip by): resolves with it once recorded, or null after `timeoutMs`.
   */
  chatOutcome(botId: string, requestId: string, timeoutMs: number): Promise<ChatOutcome | null>;
  /** Resolves true once the bot acknowledged its leave, false after `timeoutMs`. */
  leaveAcknowledged(botId: string, timeoutMs: number): Promise<boolean>;
}

/** The bots' side: a long poll waits here for a request recorded for its bot (on any instance). */
export interface BotPolls {
  /** Resolves when something was recorded that may be a request for the bot, or after `waitMs`. */
  nextChange(botId: string, waitMs: number): { readonly changed: Promise<void>; cancel(): void };
}
