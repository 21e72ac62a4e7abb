import * as E from 'fp-ts/Either';
import type { BotDefinition, BotRejection } from '../domain/bot/bot-decider';
import type { CreatedBy } from '../domain/bot/bot-events';
import { handleBotCommand } from './bot-commands';
import { nowIso, type CommandDeps } from './command-deps';

export interface NewScheduledBot extends BotDefinition {
  readonly team_id: string;
  readonly created_by: CreatedBy | null;
  readonly join_at: string;
}

/**
 * A bot for later: one append to its own stream. Nothing is reserved, registered or counted now: at its
 * time the scheduler admits it like a new bot (queue-scheduled-bot.ts).
 */
export const scheduleBot = async (
  deps: CommandDeps,
  bot: NewScheduledBot,
): Promise<E.Either<BotRejection, { bot_id: string; position: bigint | null }>> => {
  const bot_id = deps.newId();
  const scheduled = await handleBotCommand(deps, bot_id, { type: 'ScheduleBot', bot_id, ...bot, now: nowIso(deps) });
  return E.map(({ position }: { position: bigint | null }) => ({ bot_id, position }))(scheduled);
};

/**
 * PATCH: the whole new definition and time, against the version the caller merged its change into; the
 * bot acts for the key that made the change from then on.
 */
export const changeSchedule = (
  deps: CommandDeps,
  botId: string,
  scheduleVersion: number,
  change: BotDefinition & { readonly join_at: string; readonly created_by: CreatedBy | null },
) =>
  handleBotCommand(deps, botId, { type: 'ChangeSchedule', schedule_version: scheduleVersion, ...change, now: nowIso(deps) });

/** DELETE: ends the bot before its time; refused once it has started (then leave stops it). */
export const cancelScheduledBot = (deps: CommandDeps, botId: string) =>
  handleBotCommand(deps, botId, { type: 'CancelScheduledBot', now: nowIso(deps) });
