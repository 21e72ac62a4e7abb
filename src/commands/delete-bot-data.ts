import * as E from 'fp-ts/Either';
import type { EventStore } from '../adapters/event-store/port';
import type { KeyVault } from '../adapters/key-vault/port';
import type { BotRejection } from '../domain/bot/bot-decider';
import { handleBotCommand } from './bot-commands';
import { botStreamName } from '../domain/bot/bot-events';
import { nowIso, type CommandDeps } from './command-deps';
import { stateCacheFor } from './stream-state-cache';

export interface DataDeletion {
  /** the log's position of the deletion, for read-your-writes; null when it was deleted before */
  readonly position: bigint | null;
  readonly alreadyDeleted: boolean;
}

/**
 * Deletes a bot's data on the team's request: records it (the decider refuses a bot still running), then
 * destroys the bot's data key at once, so that nothing personal of it is read from here on. The eraser
 * destroys it again before erasing the artifacts, so that a crash between the two loses nothing. This
 * process's folded states of the bot's streams (its own, its webhook deliveries') are dropped: folded again,
 * they read the placeholders.
 */
export const deleteBotData = async (deps: CommandDeps, keyVault: KeyVault, botId: string, keyId: string): Promise<E.Either<BotRejection, DataDeletion>> => {
  const now = nowIso(deps);
  const decided = await handleBotCommand(deps, botId, { type: 'DeleteBotData', key_id: keyId, now });
  if (E.isLeft(decided)) return decided;
  await keyVault.destroy(botId, now);
  forgetFoldedStatesOf(deps.eventStore, botId);
  return E.right({ position: decided.right.position, alreadyDeleted: decided.right.events.length === 0 });
};

/**
 * Drops this process's folded states of a deleted bot's streams (its own, its webhook deliveries'): folded
 * before, they hold its personal fields as they read then (a queued webhook's payload); folded again, they
 * read the placeholders. Every process does it when it sees the deletion in the log (forget-deleted-bot-states.ts).
 */
export const forgetFoldedStatesOf = (eventStore: EventStore, botId: string): void =>
  // A delivery stream about a bot ends with its subject, the bot's stream name.
  stateCacheFor(eventStore).forget((stream) => stream === botStreamName(botId) || stream.endsWith(`-${botStreamName(botId)}`));
