import * as E from 'fp-ts/Either';
import type { BotControl } from '../adapters/bot-control/port';
import { botDecider, type BotRejection } from '../domain/bot/bot-decider';
import { nowIso, type CommandDeps } from './command-deps';
import { handleBotCommand, loadBot } from './bot-commands';

export const CHAT_ANSWER_TIMEOUT_MS = 10_000;

export type ChatRefusal =
  | BotRejection
  | { readonly code: 'CHAT_DISABLED'; readonly message: string }
  | { readonly code: 'SEND_FAILED'; readonly message: string };

/**
 * Posts a chat message through the running bot. The status rule (409 unless the bot is in the call) is
 * checked before the bot is asked; once the bot says it posted the message, the message is recorded
 * whatever the bot's status has become meanwhile: refusing it then would make the client send it again.
 */
export const sendChatMessage = async (
  deps: CommandDeps,
  control: BotControl,
  botId: string,
  message: string,
): Promise<E.Either<ChatRefusal, { position: bigint | null }>> => {
  const state = await loadBot(deps, botId);
  const allowed = botDecider.decide({ type: 'CheckChatMessageAllowed', now: nowIso(deps) }, state);
  if (E.isLeft(allowed)) return allowed;
  const answer = await control.send(botId, { kind: 'chat', message }, CHAT_ANSWER_TIMEOUT_MS);
  if (!answer.ok) {
    if (answer.reason === 'chat_disabled') return E.left({ code: 'CHAT_DISABLED', message: 'Chat is disabled in this meeting' });
    return E.left({ code: 'SEND_FAILED', message: answer.reason === 'unreachable' ? 'The bot could not be reached' : answer.message });
  }
  const recorded = await handleBotCommand(deps, botId, { type: 'RecordChatMessageSent', message_id: answer.id, message, now: nowIso(deps) });
  return E.map(({ position }: { position: bigint | null }) => ({ position }))(recorded);
};
