import * as E from 'fp-ts/Either';
import type { BotControl } from '../adapters/bot-control/port';
import type { BotRejection } from '../domain/bot/bot-decider';
import { nowIso, type CommandDeps } from './command-deps';
import { handleBotCommand } from './bot-commands';

export const LEAVE_ANSWER_TIMEOUT_MS = 10_000;

export interface LeaveAccepted {
  readonly message: string;
  readonly position: bigint | null;
}

/**
 * Asks a bot to leave. A bot nobody runs yet ends at once; a running bot gets the leave recorded on its
 * stream (any api instance hands it to its next poll until it acknowledges it) and ends itself (its end
 * report decides completed or EXITING_MEETING_BEFORE_RECORD). The answer says whether the bot has taken
 * it already (it acknowledged within a few seconds) or will as soon as it can be reached.
 */
export const leaveBot = async (deps: CommandDeps, control: BotControl, botId: string): Promise<E.Either<BotRejection, LeaveAccepted>> => {
  const acknowledged = control.leaveAcknowledged(botId, LEAVE_ANSWER_TIMEOUT_MS);
  const result = await handleBotCommand(deps, botId, { type: 'RequestLeave', now: nowIso(deps) });
  if (E.isLeft(result)) return result;
  const { events, position, state } = result.right;
  if (events.some((e) => e.type === 'BotFailed')) {
    const cancelled = state.kind === 'present' && state.status === 'cancelled';
    return E.right({ message: cancelled ? 'The scheduled bot was cancelled before its time' : 'The bot left before joining the meeting', position });
  }
  const taken = (await control.reachable(botId)) && (await acknowledged);
  return E.right({
    message: taken ? 'The bot is leaving the meeting' : 'Leave requested; the bot will leave as soon as it can be reached',
    position,
  });
};
