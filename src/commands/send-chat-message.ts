import * as E from 'fp-ts/Either';
import type { BotControl, ChatOutcome } from '../adapters/bot-control/port';
import type { BotRejection } from '../domain/bot/bot-decider';
import { nowIso, type CommandDeps } from './command-deps';
import { BotEvent, botStreamName } from '../domain/bot/bot-events';
import { handleBotCommand, loadBot } from './bot-commands';
import { decodeRecordedEvent } from './decode-recorded-event';

export const CHAT_ANSWER_TIMEOUT_MS = 10_000;

export type ChatRefusal =
  | BotRejection
  | { readonly code: 'CHAT_DISABLED'; readonly message: string }
  | { readonly code: 'SEND_FAILED'; readonly message: string };

/**
 * Posts a chat message through the running bot. The request is recorded on the bot's stream (409 unless
 * the bot is in the call), so whichever api instance holds the bot's long poll hands it over; the bot's
 * answer is recorded by whichever instance it reaches, and this call, on any instance, returns it. A bot
 * that has not called lately, or does not answer in time, is recorded unreachable (the first outcome
 * counts: a late answer changes nothing, and a request with an outcome is never handed over again).
 */
export const sendChatMessage = async (
  deps: CommandDeps,
  control: BotControl,
  botId: string,
  message: string,
): Promise<E.Either<ChatRefusal, { position: bigint | null }>> => {
  const requestId = deps.newId();
  const answered = control.chatOutcome(botId, requestId, CHAT_ANSWER_TIMEOUT_MS);
  const requested = await handleBotCommand(deps, botId, { type: 'RequestChatMessage', request_id: requestId, message, now: nowIso(deps) });
  if (E.isLeft(requested)) return requested;
  const reachable = await control.reachable(botId);
  const outcome = (reachable ? await answered : null) ?? (await giveUp(deps, botId, requestId, reachable ? 'The bot did not answer in time' : 'The bot is not connected'));
  if (outcome.ok) return E.right({ position: outcome.position });
  if (outcome.reason === 'chat_disabled') return E.left({ code: 'CHAT_DISABLED', message: 'Chat is disabled in this meeting' });
  // The bot found itself out of the call (it left, or has not joined): the status conflict the spec answers with 409.
  if (outcome.reason === 'not_in_call') {
    const bot = await loadBot(deps, botId);
    if (bot.kind === 'present') return E.left({ code: 'BOT_STATUS', message: `Chat messages can only be sent while the bot is in the call: ${outcome.message}`, status: bot.status });
  }
  return E.left({ code: 'SEND_FAILED', message: outcome.reason === 'unreachable' ? 'The bot could not be reached' : outcome.message });
};

/** Records the request unreachable, unless an answer got there first: then that answer is the outcome. */
const giveUp = async (deps: CommandDeps, botId: string, requestId: string, why: string): Promise<ChatOutcome> => {
  const recorded = await handleBotCommand(deps, botId, {
    type: 'RecordChatAnswer',
    request_id: requestId,
    outcome: { ok: false, reason: 'unreachable', message: why },
    now: nowIso(deps),
  });
  if (E.isRight(recorded) && recorded.right.events.length > 0) return { ok: false, reason: 'unreachable', message: why, position: recorded.right.position ?? 0n };
  for (const recorded of [...(await deps.eventStore.readStream(botStreamName(botId)))].reverse()) {
    const event = decodeRecordedEvent(BotEvent, recorded);
    if (event.type === 'ChatMessageSent' && event.data.message_id === requestId) return { ok: true, position: recorded.position };
    if (event.type === 'ChatMessageFailed' && event.data.request_id === requestId) {
      return { ok: false, reason: event.data.reason, message: event.data.message, position: recorded.position };
    }
  }
  // The bot ended meanwhile, or was never there: nothing answered.
  return { ok: false, reason: 'unreachable', message: why, position: 0n };
};
