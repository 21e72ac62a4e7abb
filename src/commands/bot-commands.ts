import type * as E from 'fp-ts/Either';
import { botDecider, type BotCommand, type BotRejection, type BotState } from '../domain/bot/bot-decider';
import { BotEvent, botStreamName } from '../domain/bot/bot-events';
import { botFactsOf, type BotFacts } from '../domain/bot/bot-facts';
import type { CommandDeps } from './command-deps';
import { decodeRecordedEvent } from './decode-recorded-event';
import { handleCommand, loadState, type Handled } from './handle-command';

export type BotCommandResult = E.Either<BotRejection, Handled<BotEvent, BotState>>;

/** Every command on one bot goes through its own stream; the decider holds the rules. */
export const handleBotCommand = (deps: Pick<CommandDeps, 'eventStore'>, botId: string, command: BotCommand): Promise<BotCommandResult> =>
  handleCommand(deps.eventStore, botStreamName(botId), botDecider, BotEvent, command);

export const loadBot = (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotState> =>
  loadState(deps.eventStore, botStreamName(botId), botDecider, BotEvent);

/** The bot's events, decoded, oldest first (none for an unknown bot). */
export const readBotEvents = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotEvent[]> =>
  (await deps.eventStore.readStream(botStreamName(botId))).map((recorded) => decodeRecordedEvent(BotEvent, recorded));

/** What the bot is (bot-facts.ts), for every reader outside the decider; null for an unknown bot. */
export const loadBotFacts = async (deps: Pick<CommandDeps, 'eventStore'>, botId: string): Promise<BotFacts | null> =>
  botFactsOf(await readBotEvents(deps, botId));

const noUsage = { recorded_seconds: 0, waiting_room_seconds: 0 };

/**
 * Ends a bot that did not report its own end (its process died, it cannot start, it went silent): failed,
 * with what happened. After the bot's own end report this changes nothing.
 */
export const failUnreportedBot = (deps: Pick<CommandDeps, 'eventStore' | 'clock'>, botId: string, error_code: string, error_message: string): Promise<BotCommandResult> =>
  handleBotCommand(deps, botId, { type: 'EndBot', outcome: 'failed', error_code, error_message, usage: noUsage, now: deps.clock().toISOString() });
